import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

/// What `beautyctl import` of an Outlook file (Fixtures/calendars/outlook-unplaceable.ics) says in each
/// language: the event without DTSTART is listed as not imported, the unknown TZID is a warning.
struct UnplaceableImportLanguage: Sendable, CustomTestStringConvertible {
    var locale: String
    var counts: String
    var skippedHeading: String
    var skipped: String
    var unknownZone: String
    var bare: String
    var notICalendar: String

    var testDescription: String { locale }

    static let polish = UnplaceableImportLanguage(
        locale: "pl_PL.UTF-8", counts: ": nowe: 2, ",
        skippedHeading: "1 wydarzenie nie zostało zaimportowane:\n",
        skipped:
            ":29: VEVENT „Henna brwi” (UID 040000008200E00074C5B7101A82E00800000000D0C5A2E0F1C9D4010000000000000000100000000A1B2C3D4E5F60718293A4B5C6D7E91) nie ma DTSTART: nie da się go umieścić w czasie, więc go nie zaimportowano\n",
        unknownZone:
            ":25: nieznana strefa czasowa „CUSTOM_tzid” (to nie nazwa IANA ani Windows, a plik nie ma dla niej VTIMEZONE): „(bez tytułu)” zaimportowano w czasie lokalnym, teraz Europe/Warsaw\n",
        bare: ":1: plik nie ma BEGIN:VCALENDAR: jego wydarzenia odczytano jako jeden kalendarz\n",
        notICalendar:
            ":1: nie jest to plik iCalendar: zaczyna się od „uuid,amount_ml,start,end”, a nie od BEGIN:VCALENDAR (nic nie zaimportowano)\n"
    )
    static let slovak = UnplaceableImportLanguage(
        locale: "sk_SK.UTF-8", counts: ": nové: 2, ",
        skippedHeading: "1 udalosť sa neimportovala:\n",
        skipped:
            ":29: VEVENT „Henna brwi“ (UID 040000008200E00074C5B7101A82E00800000000D0C5A2E0F1C9D4010000000000000000100000000A1B2C3D4E5F60718293A4B5C6D7E91) nemá DTSTART: nedá sa umiestniť v čase, preto sa neimportoval\n",
        unknownZone:
            ":25: neznáme časové pásmo „CUSTOM_tzid“ (nie je to názov IANA ani Windows a súbor preň nemá VTIMEZONE): „(bez názvu)“ sa importovalo v miestnom čase, teraz Europe/Warsaw\n",
        bare: ":1: súbor nemá BEGIN:VCALENDAR: jeho udalosti sa načítali ako jeden kalendár\n",
        notICalendar:
            ":1: nie je to súbor iCalendar: začína sa „uuid,amount_ml,start,end“, nie BEGIN:VCALENDAR (nič sa neimportovalo)\n"
    )
    static let english = UnplaceableImportLanguage(
        locale: "C", counts: "Imported 2 new, ",
        skippedHeading: "1 event not imported:\n",
        skipped:
            ":29: VEVENT 'Henna brwi' (UID 040000008200E00074C5B7101A82E00800000000D0C5A2E0F1C9D4010000000000000000100000000A1B2C3D4E5F60718293A4B5C6D7E91) has no DTSTART: it cannot be placed in time and is not imported\n",
        unknownZone:
            ":25: unknown time zone 'CUSTOM_tzid' (not an IANA or Windows name, and the file has no VTIMEZONE for it): '(no title)' is imported in local time, now Europe/Warsaw\n",
        bare: ":1: the file has no BEGIN:VCALENDAR: its events were read as one calendar\n",
        notICalendar:
            ":1: not an iCalendar file: it begins with 'uuid,amount_ml,start,end', not BEGIN:VCALENDAR (nothing was imported)\n"
    )
}

extension EndToEndServing {
    @Suite("Import of files with events that cannot be placed: the rest imported, the summary lists them", .serialized)
    struct UnplaceableImport {
        @Test(arguments: [UnplaceableImportLanguage.polish, .slovak, .english])
        func theRestIsImportedAndTheSummaryListsWhatWasSkippedOrGuessed(language: UnplaceableImportLanguage)
            async throws
        {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = language.locale
            let file = try Locations.fixture("calendars/outlook-unplaceable.ics")

            let imported = try await stack.beautyctlOK(["import", file])
            let out = imported.stdout
            #expect(out.split(separator: "\n").first?.contains(language.counts) == true, "\(imported)")
            #expect(out.contains(language.skippedHeading + "  " + file + language.skipped), "\(imported)")
            #expect(out.contains("  " + file + language.unknownZone), "\(imported)")
            if language.locale != "C" { #expect(!out.contains("(no title)"), "\(imported)") }
            let agenda = try await stack.agenda(around: instant("2030-12-04 13:00"), days: 3)
            #expect(agenda.entries.map(\.title) == ["Koloryzacja", CalendarEvent.untitled], "\(agenda.entries)")
            #expect(
                agenda.entries.map(\.start) == [
                    instant("2030-12-04 10:00", "Europe/Berlin"), instant("2030-12-05 09:00"),
                ],
                "Western/Central Europe is Berlin's time; CUSTOM_tzid is local time (Warsaw)")

            let bare = stack.directory + "/bare.ics"
            try FileManager.default.copyItem(
                atPath: try Locations.fixture("calendars/icalendar-rfc_9074_example_1.ics"), toPath: bare)
            let read = try await stack.beautyctlOK(["import", bare])
            #expect(read.stdout.contains("  " + bare + language.bare), "\(read)")
            #expect(
                try await stack.agenda(around: instant("2021-03-02 10:30", "America/New_York")).entries.map(\.title)
                    == ["Meeting"])

            let csv = stack.directory + "/water.csv"
            try "uuid,amount_ml,start,end\nx,250,2026-11-27T10:00:00Z,\n".write(
                toFile: csv, atomically: true, encoding: .utf8)
            let refused = try await stack.beautyctl(["import", csv])
            #expect(refused.status == .exited(2) || refused.status == .exited(1), "\(refused)")
            #expect(refused.stderr.hasSuffix(csv + language.notICalendar), "\(refused)")
        }

        @Test(
            "--json lists the skipped events with FILE, LINE, UID and SUMMARY, and the guessed zone among the warnings")
        func jsonListsSkippedEvents() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = "pl_PL.UTF-8"
            let file = try Locations.fixture("calendars/outlook-unplaceable.ics")
            let json = try await stack.beautyctlOK(["import", file, "--json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
            #expect(object["inserted"] as? Int == 2)
            let skipped = try #require(object["skippedEvents"] as? [[String: Any]], "\(json)")
            #expect(skipped.count == 1)
            #expect(skipped.first?["file"] as? String == file && skipped.first?["line"] as? Int == 29)
            #expect(skipped.first?["summary"] as? String == "Henna brwi")
            #expect((skipped.first?["uid"] as? String)?.hasSuffix("D7E91") == true)
            #expect(
                skipped.first?["text"] as? String
                    == "VEVENT '%s' (UID %s) has no DTSTART: it cannot be placed in time and is not imported")
            let warnings = try #require(object["warnings"] as? [[String: Any]], "\(json)")
            let zone = try #require(warnings.first { $0["line"] as? Int == 25 }, "\(json)")
            #expect(
                zone["message"] as? String
                    == "unknown time zone 'CUSTOM_tzid' (not an IANA or Windows name, and the file has no VTIMEZONE for it): '(no title)' is imported in local time, now Europe/Warsaw"
            )
            let title = try #require(
                (zone["argTexts"] as? [Any])?[1] as? [String: Any], "(no title) is a message of its own: \(json)")
            #expect(title["text"] as? String == "(no title)")
            #expect((object["notImported"] as? [[String: Any]])?.first?["name"] as? String == "VTODO")
        }

        @Test("a PNG and an empty file are refused as not iCalendar; nothing is imported")
        func notICalendarIsRefused() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let png = stack.directory + "/photo.ics", empty = stack.directory + "/empty.ics"
            try Data([
                0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0xFF,
                0xD8,
            ])
            .write(to: URL(fileURLWithPath: png))
            try Data().write(to: URL(fileURLWithPath: empty))
            let photo = try await stack.beautyctl(["import", png])
            #expect(
                photo.status != .exited(0)
                    && photo.stderr.contains(
                        png + ": not an iCalendar file: it is not UTF-8 text (nothing was imported)"),
                "\(photo)")
            let nothing = try await stack.beautyctl(["import", empty])
            #expect(
                nothing.status != .exited(0)
                    && nothing.stderr.contains(
                        empty + ":1: the file is empty (expected BEGIN:VCALENDAR) (nothing was imported)"),
                "\(nothing)")
        }

        @Test(
            "a server event without DTSTART is skipped and named in sync status, in the user's language; the other event arrives"
        )
        func serverEventWithoutStart() async throws {
            try await HostileInput.withHostileServer { server, stack, daemon in
                let start = tomorrowOnTheHour()
                let noStart =
                    [
                        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//beautyd tests//phone//EN", "BEGIN:VEVENT",
                        "UID:nostart@hostile",
                        "DTSTAMP:20261120T101500Z", "SUMMARY:Henna brwi", "END:VEVENT", "END:VCALENDAR",
                    ].joined(separator: "\r\n") + "\r\n"
                try await server.set(
                    .init(events: [
                        "nostart.ics": noStart,
                        "fine.ics": HostileInput.event(uid: "fine@hostile", summary: "Manicure", start: start),
                    ]))
                let report = try await HostileInput.syncNow(stack)
                #expect(report.fetched == 2 && report.accounts.first?.error == nil, "\(report)\n\(stack.logs)")
                #expect(try await stack.agenda(around: start).entries.map(\.title) == ["Manicure"])
                let warnings = try await stack.syncStatus("hostile").warnings?.map(\.english) ?? []
                #expect(
                    warnings.contains {
                        $0.contains("/cal/nostart.ics")
                            && $0.contains("VEVENT 'Henna brwi' (UID nostart@hostile) has no DTSTART")
                    },
                    "\(warnings)")
                stack.locale = "sk_SK.UTF-8"
                let status = try await stack.beautyctlOK(["sync", "status", "hostile"])
                #expect(
                    status.stdout.contains("/cal/nostart.ics: VEVENT „Henna brwi“ (UID nostart@hostile) nemá DTSTART"),
                    "\(status)")
                #expect(daemon.isRunning)
            }
        }
    }
}
