import BeautyCore
import BeautyTestSupport
import Foundation
import Testing

@Suite("Tips: the collection, search, random pick, tip of the day")
struct TipsTests {
    @Test func everyCategoryHasAtLeastSixShortTipsWithUniqueIDs() {
        #expect(Set(Tips.all.map(\.id)).count == Tips.all.count)
        #expect(Set(Tips.all.map(\.title)).count == Tips.all.count, "titles repeat")
        for category in TipCategory.allCases {
            #expect(Tips.all.filter { $0.category == category }.count >= 6, "\(category) has fewer than 6 tips")
        }
        for tip in Tips.all {
            #expect(!tip.title.isEmpty && tip.title.count <= 40, "title of #\(tip.id): \(tip.title)")
            let sentences = tip.text.split(whereSeparator: { ".!?".contains($0) }).filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
            #expect((1...3).contains(sentences.count), "#\(tip.id) has \(sentences.count) sentences")
            #expect(!tip.text.contains("\n"))
        }
    }

    @Test func searchIgnoresCaseAndAccentsAndLooksAtTitleAndText() {
        let lower = Tips.matching(category: nil, search: "silk")
        #expect(lower.map(\.id) == [13])
        #expect(Tips.matching(category: nil, search: "SILK") == lower)
        #expect(Tips.matching(category: nil, search: "SiLk") == lower)
        // In a title only ("Sleep on silk" has it in both; "Cleanse before bed" only in the title).
        #expect(Tips.matching(category: nil, search: "CLEANSE").map(\.id) == [1])
        // In a text only.
        #expect(Tips.matching(category: nil, search: "almond").map(\.id) == [17])
        #expect(Tips.matching(category: nil, search: "ÁLMOND").map(\.id) == [17], "accents are ignored")
        #expect(Tips.matching(category: .nails, search: "oil").map(\.id) == [16, 17])
        #expect(Tips.matching(category: .face, search: "oil").isEmpty)
        #expect(Tips.matching(category: nil, search: "no such words").isEmpty)
        #expect(Tips.matching(category: .hair, search: nil).allSatisfy { $0.category == .hair })
        #expect(Tips.matching(category: nil, search: nil) == Tips.all)
    }

    @Test func categoriesAndSearchTextsAreChecked() throws {
        #expect(try TipCategory(parsing: " Hair ") == .hair)
        #expect(try TipCategory(parsing: "NAILS") == .nails)
        #expect(
            throws: ValidationError(field: "category", "'lips' is not a tip category (one of face, hair, nails, body)")
        ) {
            try TipCategory(parsing: "lips")
        }
        #expect(throws: ValidationError.self) { try TipCategory(parsing: "") }
        #expect(try Tips.searchText(nil) == nil)
        #expect(try Tips.searchText("  silk ") == "silk")
        #expect(throws: ValidationError.self) { try Tips.searchText("   ") }
        #expect(throws: ValidationError.self) { try Tips.searchText(String(repeating: "a", count: 201)) }
        #expect(throws: ValidationError.self) { try Tips.searchText("a\nb") }
    }

    @Test func randomPicksAmongTheMatchesOnly() {
        var generator = SystemRandomNumberGenerator()
        var seen = Set<Int>()
        for _ in 0..<200 {
            let tip = Tips.random(category: .body, search: nil, using: &generator)
            #expect(tip?.category == .body)
            if let tip { seen.insert(tip.id) }
        }
        #expect(seen.count > 1, "always the same tip")
        #expect(Tips.random(category: nil, search: "pillowcase", using: &generator)?.id == 13)
        #expect(Tips.random(category: .face, search: "pillowcase", using: &generator) == nil)
    }

    @Test func theTipOfTheDayRotatesCategoriesAndCoversTheCollection() {
        let start = LocalDate(year: 2030, month: 1, day: 1)
        let month = (0..<Tips.all.count).map { Tips.ofTheDay(start.adding(days: $0)) }
        #expect(Set(month.map(\.id)).count == Tips.all.count, "a tip repeats before the collection came round")
        for (a, b) in zip(month, month.dropFirst()) {
            #expect(a.category != b.category, "two \(a.category) tips in a row")
        }
        #expect(Tips.ofTheDay(start) == Tips.ofTheDay(LocalDate(year: 2030, month: 1, day: 1)))
        #expect(Tips.ofTheDay(start.adding(days: Tips.all.count)) == Tips.ofTheDay(start))
        #expect(Tips.ofTheDay(LocalDate(year: 1999, month: 12, day: 31)).id > 0, "days before 2000 work too")
    }
}

@Suite("Water: amounts, records, reminder instants, CSV/JSON import")
struct WaterTests {
    @Test(arguments: [
        ("250", 250), ("250,5", 251), ("250.5", 251), ("250,49", 250), ("250,4999", 250), ("10,5", 11),
        ("0,5l", 500), ("0.33 L", 330), ("330ml", 330), (" 330 ml ", 330), ("1,5 l", 1500), ("007", 7),
        ("10000", 10_000),
    ])
    func amountsRoundHalfUpToWholeMillilitres(text: String, ml: Int) throws {
        #expect(try WaterAmount.parse(text) == ml)
    }

    @Test(arguments: [
        ("-250", "negative"), ("12,3,4", "not an amount"), ("", "must not be empty"), ("   ", "must not be empty"),
        ("abc", "not an amount"), ("0", "less than 1 ml"), ("0,4", "'0,4' could only be 0,4 l (400 ml): write '0,4 l'"),
        ("10001", "more than 10000"),
        ("1,2.3", "not an amount"), ("250,", "not an amount"), (",5", "not an amount"), ("9999999", "too large"),
        ("ml", "not an amount"),
    ])
    func badAmountsGetAClearMessage(text: String, mentions: String) {
        do {
            let ml = try WaterAmount.parse(text, field: "amount")
            Issue.record("'\(text)' was accepted as \(ml) ml")
        } catch let error as ValidationError {
            #expect(error.field == "amount")
            #expect(error.message.contains(mentions), "'\(text)': \(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: [
        ("2,5", "'2,5' could be 2,5 l or 2,5 ml: write the unit, e.g. '2,5 l' or '3 ml'"),
        ("0.5", "'0.5' could be 0.5 l or 0.5 ml: write the unit, e.g. '0.5 l' or '1 ml'"),
        ("10,0", "'10,0' could be 10,0 l or 10,0 ml: write the unit, e.g. '10,0 l' or '10 ml'"),
    ])
    func aBareDecimalThatCouldBeLitresIsRefusedNamingBothReadings(text: String, message: String) throws {
        // `water add 2,5` stored 3 ml without a word.
        #expect(throws: ValidationError(field: "amount", message)) { try WaterAmount.parse(text) }
        #expect(throws: ValidationError.self) { try WaterAmount.goal(parsing: "1,5") }
        #expect(
            try WaterAmount.parse("2,5 l") == 2500 && WaterAmount.parse("2,5ml") == 3
                && WaterAmount.parse("250 ml") == 250)
        #expect(try WaterAmount.parse("10,01") == 10, "more than a record's 10 l: only millilitres fit")
        #expect(try WaterAmount.parse("2,5", inMillilitres: true) == 3, "a file's amount_ml column says its unit")
    }

    @Test func numbersFromFilesRoundTheSameWay() throws {
        #expect(try WaterAmount.rounded(250.5) == 251)
        #expect(try WaterAmount.rounded(249.49) == 249)
        #expect(throws: ValidationError.self) { try WaterAmount.rounded(-1) }
        #expect(throws: ValidationError.self) { try WaterAmount.rounded(.nan) }
        #expect(throws: ValidationError.self) { try WaterAmount.rounded(0.2) }
        #expect(throws: ValidationError.self) { try WaterAmount.rounded(1e300) }
        #expect(try WaterAmount.goal(2000) == 2000)
        #expect(throws: ValidationError.self) { try WaterAmount.goal(0) }
        #expect(throws: ValidationError.self) { try WaterAmount.goal(20_001) }
        #expect(try WaterAmount.goal(parsing: "2,5 l") == 2500)
        #expect(try WaterAmount.goal(parsing: "15000") == 15_000)
        #expect(throws: ValidationError(field: "goal", "must be between 1 and 20000 ml")) {
            try WaterAmount.goal(parsing: "50000")
        }
        #expect(throws: ValidationError.self) { try WaterAmount.goal(parsing: "-1") }
    }

    @Test func recordsAreCheckedAndUUIDsNormalised() throws {
        let start = instant("2030-01-15 08:30")
        let record = try Validation.waterRecord(
            WaterRecord(uuid: " 6f1c2b3e-0000-4000-8000-00000000000a ", amountMl: 250, start: start))
        #expect(record.uuid == "6F1C2B3E-0000-4000-8000-00000000000A")
        #expect(try Validation.waterUUID("health-1") == "health-1")
        #expect(throws: ValidationError(field: "uuid", "must not be empty")) { try Validation.waterUUID("  ") }
        #expect(throws: ValidationError.self) { try Validation.waterUUID("two words") }
        #expect(throws: ValidationError.self) { try Validation.waterUUID(String(repeating: "x", count: 101)) }
        #expect(throws: ValidationError.self) {
            try Validation.waterRecord(WaterRecord(uuid: "a", amountMl: 0, start: start))
        }
        #expect(throws: ValidationError(field: "end", "must not be before the start")) {
            try Validation.waterRecord(
                WaterRecord(uuid: "a", amountMl: 1, start: start, end: start.addingTimeInterval(-1)))
        }
    }

    // MARK: - Reminder instants

    func reminder(_ every: Int, _ start: String, _ end: String) throws -> WaterReminder {
        let window = try Validation.parseWindow("\(start)-\(end)")
        return WaterReminder(enabled: true, everySeconds: every, windowStart: window.0, windowEnd: window.1)
    }

    @Test func remindersComeEveryNHoursInsideTheWindowEndIncluded() throws {
        let day = LocalDate(year: 2030, month: 1, day: 15)
        let times = try reminder(7200, "09:00", "21:00").instants(on: day, zone: warsaw)
        #expect(
            times
                == ["09:00", "11:00", "13:00", "15:00", "17:00", "19:00", "21:00"].map { instant("2030-01-15 \($0)") })
        let uneven = try reminder(5400, "09:00", "12:00").instants(on: day, zone: warsaw)
        #expect(uneven == ["09:00", "10:30", "12:00"].map { instant("2030-01-15 \($0)") })
        // Crossing midnight: the reminders belong to the evening the window starts on.
        let night = try reminder(7200, "22:00", "02:00").instants(on: day, zone: warsaw)
        #expect(night == [instant("2030-01-15 22:00"), instant("2030-01-16 00:00"), instant("2030-01-16 02:00")])
        // Spring forward (Warsaw, 2030-03-31 02:00 -> 03:00): elapsed time is kept.
        let spring = try reminder(3600, "00:00", "05:00").instants(
            on: LocalDate(year: 2030, month: 3, day: 31), zone: warsaw)
        #expect(spring == ["00:00", "01:00", "03:00", "04:00", "05:00"].map { instant("2030-03-31 \($0)") })
        // A whole-day window never gives 24 h or more of reminders.
        let allDay = try reminder(3600, "00:00", "23:59").instants(on: day, zone: warsaw)
        #expect(allDay.count == 24 && allDay.last == instant("2030-01-15 23:00"))
    }

    @Test func remindersInARangeIncludeTheEveningBeforeAndKnowTheirDay() throws {
        let night = try reminder(7200, "22:00", "02:00")
        let found = night.reminders(from: instant("2030-01-16 00:00"), to: instant("2030-01-16 23:00"), zone: warsaw)
        #expect(
            found.map(\.at) == [instant("2030-01-16 00:00"), instant("2030-01-16 02:00"), instant("2030-01-16 22:00")])
        #expect(found.map(\.day.description) == ["2030-01-15", "2030-01-15", "2030-01-16"])
        #expect(
            night.reminders(from: instant("2030-01-16 03:00"), to: instant("2030-01-16 03:00"), zone: warsaw).isEmpty)
    }

    @Test func reminderSettingsAreChecked() throws {
        #expect(throws: ValidationError(field: "every", "must be at least 1 minute")) {
            try self.reminder(59, "09:00", "21:00").validated()
        }
        #expect(throws: ValidationError(field: "every", "must be at most 24 hours")) {
            try self.reminder(86_401, "09:00", "21:00").validated()
        }
        var same = WaterReminder.standard
        same.windowEnd = same.windowStart
        #expect(throws: ValidationError.self) { try same.validated() }
        #expect(try WaterReminder.standard.validated() == WaterReminder.standard)
        #expect(!WaterReminder.standard.enabled)
    }

    // MARK: - Import

    @Test func csvWithQuotesCRLFBOMAndColumnsInAnyOrder() throws {
        let text =
            "\u{FEFF}Start,UUID,source,amount_ml,end\r\n"
            + "2030-01-15T08:30:00+01:00,6f1c2b3e-0000-4000-8000-000000000001,watch,250,2030-01-15T08:35:00+01:00\r\n"
            + "\r\n"
            + "2030-01-15 12:00:00 +0100,health-2,\"phone, kitchen\",\"300,5\",\r\n"
            + "2030-01-15T18:00,\"odd\"\"id\"\"\",,330,\n"
        let records = try WaterImport.parse(text, zone: warsaw)
        #expect(
            records == [
                WaterRecord(
                    uuid: "6F1C2B3E-0000-4000-8000-000000000001", amountMl: 250, start: instant("2030-01-15 08:30"),
                    end: instant("2030-01-15 08:35")),
                WaterRecord(uuid: "health-2", amountMl: 301, start: instant("2030-01-15 12:00")),
                WaterRecord(uuid: "odd\"id\"", amountMl: 330, start: instant("2030-01-15 18:00")),
            ], "\(records)")
        #expect(try WaterImport.fields(#"a,"b,c",,"d""e""#) == ["a", "b,c", "", "d\"e"])
    }

    @Test func csvRecordsAreReadInOrder() throws {
        let text = """
            uuid,amount_ml,start,end
            a,250,2030-01-15T08:30:00Z,
            b,"250,5",2030-01-15T09:30:00.250Z,2030-01-15T09:35:00Z
            """
        let records = try WaterImport.parse(text, zone: warsaw)
        #expect(records.map(\.uuid) == ["a", "b"])
        #expect(records.map(\.amountMl) == [250, 251])
        #expect(records[0].start == utc("2030-01-15T08:30:00Z") && records[0].end == nil)
        #expect(records[1].start.timeIntervalSince(utc("2030-01-15T09:30:00Z")) == 0.25)
    }

    @Test func everyBadLineIsReportedWithItsNumberAndNothingIsReturned() {
        let text = """
            uuid,amount_ml,start,end
            ok-1,250,2030-01-15T08:30:00Z,
            a,12,3,4,2030-01-15T08:30:00Z,
            b,-5,2030-01-15T08:30:00Z,
            c,100,yesterday,
            ,100,2030-01-15T08:30:00Z,
            d,100,2030-01-15T08:30:00Z,2030-01-15T08:00:00Z
            e,,2030-01-15T08:30:00Z,
            ok-1,999,2030-01-15T08:30:00Z,
            f,"100,2030-01-15T08:30:00Z,
            g,100,2030-02-30T08:30:00Z,
            """
        do {
            let records = try WaterImport.parse(text, zone: warsaw)
            Issue.record("a bad file was read: \(records)")
        } catch let error as WaterImportError {
            #expect(error.problems.map(\.line) == [3, 4, 5, 6, 7, 8, 9, 10, 11], "\(error)")
            let messages = error.problems.map(\.message)
            #expect(
                messages[0].contains("expected 4 fields, found 6") && messages[0].contains("\"250,5\""),
                "\(messages[0])")
            #expect(messages[1].hasPrefix("amount_ml:") && messages[1].contains("negative"))
            #expect(messages[2].hasPrefix("start:") && messages[2].contains("yesterday"))
            #expect(messages[3] == "uuid: must not be empty")
            #expect(messages[4] == "end: must not be before the start")
            #expect(messages[5].hasPrefix("amount_ml: must not be empty"))
            #expect(messages[6].contains("also on line 2"))
            #expect(messages[7].contains("quoted field is not closed"))
            #expect(messages[8].hasPrefix("start:") && messages[8].contains("2030-02-30"))
            #expect(error.description.hasPrefix("line 3: expected 4 fields"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func headerProblemsAndEmptyFiles() {
        func problems(_ text: String) -> [LineError] {
            do {
                _ = try WaterImport.parse(text, zone: warsaw)
                return []
            } catch let error as WaterImportError {
                return error.problems
            } catch {
                return [LineError(line: 0, .verbatim("\(error)"))]
            }
        }
        #expect(problems("").first?.message.contains("empty") == true)
        #expect(problems("\n\n").first?.line == 1)
        let missing = problems("\nid,amount,start\nx,1,2030-01-15T08:30:00Z")
        #expect(
            missing.count == 1 && missing[0].line == 2 && missing[0].message.contains("missing: uuid, amount_ml"),
            "\(missing)")
        #expect(problems("uuid,amount_ml,start,uuid\n").first?.message.contains("named twice") == true)
        #expect(problems("uuid,amount_ml,start\n").isEmpty, "a header alone is an empty import")
        #expect(
            problems("uuid,amountMl,start\nx,1,2030-01-15T08:30:00Z").isEmpty, "amountMl works as a CSV column name too"
        )
        let many = "uuid,amount_ml,start\n" + (1...30).map { "u\($0),-1,2030-01-15T08:30:00Z" }.joined(separator: "\n")
        do {
            _ = try WaterImport.parse(many, zone: warsaw)
        } catch let error as WaterImportError {
            #expect(error.problems.count == WaterImport.maxProblems && error.more == 10)
            #expect(error.description.hasSuffix("and 10 more bad line(s)"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func jsonArraysWithEitherAmountNameAndLineNumbersForProblems() throws {
        let good = """
            [
              {"uuid": "j1", "amountMl": 200.5, "start": "2030-01-15T10:00:00Z", "end": null},
              {"uuid": "j2",
               "amount_ml": "150,4", "start": "2030-01-15T11:00:00+01:00", "end": "2030-01-15T11:05:00+01:00", "sampleType": "water"},
              {"uuid": "j3", "amountMl": 100, "start": "2030-01-15T12:00:00"}
            ]
            """
        let records = try WaterImport.parse(good, zone: warsaw)
        #expect(records.map(\.amountMl) == [201, 150, 100])
        #expect(records[1].start == instant("2030-01-15 11:00") && records[1].end == instant("2030-01-15 11:05"))
        #expect(records[2].start == instant("2030-01-15 12:00"), "no offset: local time")
        #expect(try WaterImport.parse("[]", zone: warsaw).isEmpty)

        let bad = """
            [{"uuid": "ok", "amountMl": 1, "start": "2030-01-15T10:00:00Z"},
             {"uuid": "x", "amountMl": true, "start": "2030-01-15T10:00:00Z"},
             "not an object",

             {"uuid": "y", "amountMl": 100},
             {"uuid": "{[\\"z", "amountMl": -3, "start": "2030-01-15T10:00:00Z"}, {"amountMl": 3, "start": "2030-01-15T10:00:00Z"}]
            """
        do {
            _ = try WaterImport.parse(bad, zone: warsaw)
            Issue.record("a bad JSON file was read")
        } catch let error as WaterImportError {
            #expect(error.problems.map(\.line) == [2, 3, 5, 6, 6], "\(error)")
            #expect(
                error.problems.map(\.message) == [
                    "amountMl: must be a number of millilitres",
                    "record 3: expected an object with uuid, amountMl, start and end",
                    "start: is missing (an ISO 8601 time)",
                    "amountMl: -3.0 is negative: an amount must be more than 0",
                    "uuid: is missing (a string)",
                ], "\(error)")
        }
        for text in ["{\"uuid\": \"x\"}", "[1, 2", "[{]"] {
            #expect(throws: WaterImportError.self, "\(text)") { try WaterImport.parse(text, zone: warsaw) }
        }
    }

    @Test func importTimesAcceptISOAppleHealthAndLocalForms() throws {
        let expected = instant("2030-01-15 08:30")
        for text in [
            "2030-01-15T08:30:00+01:00", "2030-01-15T07:30:00Z", "2030-01-15T07:30:00.000Z",
            "2030-01-15 08:30:00 +0100",
            "2030-01-15 08:30:00 +01:00", "2030-01-15T08:30", "2030-01-15 08:30:00", "2030-01-15t08:30:00+01:00",
            "15-01-2030 08:30:00", "15-01-2030T07:30:00Z",
        ] {
            #expect(try WaterImport.instant(text, zone: warsaw, field: "start") == expected, "\(text)")
        }
        for text in [
            "2030-01-15", "08:30", "tomorrow 8:30", "in 2h", "2030-13-01T08:30:00Z", "2030-01-15T08:30:00+99:00", "",
            "31-02-2030 08:30:00", "15-01-30 08:30",
        ] {
            #expect(throws: ValidationError.self, "\(text)") {
                try WaterImport.instant(text, zone: warsaw, field: "start")
            }
        }
    }
}
