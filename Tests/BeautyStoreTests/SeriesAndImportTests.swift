import BeautyCore
import BeautyStore
import Foundation
import Testing

/// Recurring appointments' rolling delivery horizon, re-planning when the user's zone changes, and
/// iCalendar import by UID, with a fixed clock on a real SQLite file.
@Suite("Store: series horizon, zone change, import by UID")
struct SeriesAndImportTests {
    let warsaw = TimeZone(identifier: "Europe/Warsaw")!
    let newYork = TimeZone(identifier: "America/New_York")!
    let utc = TimeZone(identifier: "UTC")!

    /// A wall-clock time in January 2027 in `zone` (Warsaw UTC+1, New York UTC-5: no DST then);
    /// days past 31 run on into February (32 is 1 February).
    func local(_ day: Int, _ hour: Int, _ minute: Int = 0, in zone: TimeZone? = nil) -> Date {
        LocalTime.instant(
            year: 2027, month: day > 31 ? 2 : 1, day: day > 31 ? day - 31 : day, hour: hour, minute: minute,
            in: zone ?? warsaw)!
    }

    /// Every delivery of an appointment by state; pending ones by occurrence.
    func deliveries(_ db: AppDatabase, _ a: Appointment) throws -> [Delivery] {
        try db.deliveries.of(itemKind: .appointment, itemID: a.id!)
    }

    func pending(_ db: AppDatabase, _ a: Appointment) throws -> [Delivery] {
        try deliveries(db, a).filter { $0.state == .pending }
    }

    /// Twice a week, Monday and Thursday 10:00 from Monday 18 January, except Monday 25 January;
    /// reminded an hour before each visit and once, absolutely, the evening before the first.
    func series(_ rule: String = "FREQ=WEEKLY;BYDAY=MO,TH") -> Appointment {
        Appointment(
            title: "Rehabilitacja", start: local(18, 10), durationSeconds: 3600,
            reminders: [.before(3600), .at(local(17, 20))],
            recurrence: AppointmentRecurrence(rule: rule, exdates: [local(25, 10)]))
    }

    // MARK: - The rolling horizon

    @Test func aSeriesHasDeliveriesForEveryOccurrenceWithinTheHorizonKeyedPerOccurrence() throws {
        let db = try AppDatabase.inMemory()
        let now = local(15, 10, 30)  // Friday; horizon: Friday 29 January 10:30
        let a = try db.appointments.add(series(), now: now, zone: warsaw)

        let planned = try pending(db, a)
        // 18 and 21 January, not the 25th (EXDATE), the 28th; 1 February is past the 14 days.
        #expect(planned.map(\.trigger.occurrence) == [local(18, 10), local(18, 10), local(21, 10), local(28, 10)])
        #expect(planned.map(\.trigger.fireAt) == [local(17, 20), local(18, 9), local(21, 9), local(28, 9)])
        #expect(
            planned.allSatisfy { $0.trigger.fireAt <= now.addingTimeInterval(AppointmentReminderPlan.seriesHorizon) })
        // One key per (occurrence, instant): the series' start twice (absolute and lead), every other once.
        #expect(Set(planned.map(\.trigger.key)).count == planned.count)
        #expect(
            planned.map(\.trigger.key).contains(
                Trigger.key(kind: .appointment, itemID: a.id!, occurrence: local(21, 10), fireAt: local(21, 9))))
        #expect(!planned.contains { $0.trigger.occurrence == local(25, 10) }, "the EXDATE occurrence got a delivery")
        #expect(try db.nextSeriesPlanningInstant() == now.addingTimeInterval(AppointmentReminderPlan.seriesHorizon / 2))
    }

    @Test func planningLaterExtendsTheSeriesWithoutDuplicatesAndKeepsHistory() throws {
        let db = try AppDatabase.inMemory()
        let a = try db.appointments.add(series(), now: local(15, 10, 30), zone: warsaw)

        // Before half the horizon has passed, planning changes nothing.
        try db.planSeries(now: local(20, 10), zone: warsaw)
        #expect(try pending(db, a).count == 4)

        // The scheduler fires what fell due in between.
        let dueByThen = try db.deliveries.due(at: local(23, 10, 30))
        #expect(dueByThen.map(\.fireAt) == [local(17, 20), local(18, 9), local(21, 9)])
        #expect(try db.deliveries.markFired(dueByThen.map(\.key), at: local(21, 9)) == 3)

        // Saturday 23 January: the horizon moves to 6 February.
        let later = local(23, 10, 30)
        try db.planSeries(now: later, zone: warsaw)
        let all = try deliveries(db, a)
        #expect(all.filter { $0.state == .fired }.count == 3, "fired history must stay: \(all)")
        let planned = all.filter { $0.state == .pending }
        #expect(
            planned.map(\.trigger.occurrence) == [local(28, 10), local(32, 10), local(35, 10)],
            "\(planned.map(\.trigger))")
        #expect(planned.map(\.trigger.fireAt) == [local(28, 9), local(32, 9), local(35, 9)])
        #expect(Set(all.map(\.trigger.key)).count == all.count, "a key was planned twice: \(all)")
        #expect(
            try db.nextSeriesPlanningInstant() == later.addingTimeInterval(AppointmentReminderPlan.seriesHorizon / 2))

        // Planning again at the same instant (the scheduler's next pass) is a no-op.
        try db.planSeries(now: later, zone: warsaw)
        #expect(try deliveries(db, a) == all)
    }

    @Test func editingTheRuleReplansFutureOccurrencesAndCancellingDropsThem() throws {
        let db = try AppDatabase.inMemory()
        let a = try db.appointments.add(series(), now: local(15, 10, 30), zone: warsaw)
        let fired = try db.deliveries.due(at: local(21, 9))
        try db.deliveries.markFired(fired.map(\.key), at: local(21, 9))
        #expect(fired.count == 3)

        // Saturday 23 January: from now on Tuesdays only.
        let now = local(23, 10, 30)
        var edited = try db.appointments.get(id: a.id!)
        edited.recurrence?.rule = "FREQ=WEEKLY;BYDAY=TU"
        _ = try db.appointments.update(edited, now: now, zone: warsaw)
        let afterEdit = try deliveries(db, a)
        #expect(
            afterEdit.filter { $0.state == .fired }.map(\.trigger.key) == fired.map(\.key),
            "history changed: \(afterEdit)")
        let planned = afterEdit.filter { $0.state == .pending }
        // Tuesdays 26 January and 2 February (9 February is past 6 February).
        #expect(planned.map(\.trigger.occurrence) == [local(26, 10), local(33, 10)], "\(planned.map(\.trigger))")
        #expect(planned.map(\.trigger.fireAt) == [local(26, 9), local(33, 9)])

        // Cancelled: nothing pending, the history stays; planning later brings nothing back.
        edited.status = .cancelled
        _ = try db.appointments.update(edited, now: now, zone: warsaw)
        #expect(try pending(db, a).isEmpty)
        #expect(try deliveries(db, a).map(\.trigger.key) == fired.map(\.key))
        try db.planSeries(now: local(40, 12), zone: warsaw)
        #expect(try pending(db, a).isEmpty)
        #expect(try db.nextSeriesPlanningInstant() == nil)
    }

    @Test func aSeriesExpandsInItsZoneAndAnAbsoluteReminderOnlyBelongsToTheFirst() throws {
        let db = try AppDatabase.inMemory()
        // Daily at 09:00 New York, pinned; planned while the user is in Warsaw.
        var daily = Appointment(
            title: "Call", start: local(16, 9, in: newYork), reminders: [.before(0), .at(local(15, 12))],
            timeZone: "America/New_York", recurrence: AppointmentRecurrence(rule: "FREQ=DAILY;COUNT=3"))
        daily = try db.appointments.add(daily, now: local(15, 10, 30), zone: warsaw)
        let planned = try pending(db, daily)
        #expect(
            planned.map(\.trigger.fireAt) == [
                local(15, 12), local(16, 9, in: newYork), local(17, 9, in: newYork), local(18, 9, in: newYork),
            ])
        #expect(planned.filter { $0.trigger.occurrence == local(16, 9, in: newYork) }.count == 2)
    }

    // MARK: - The user's zone changes

    /// Daily at 08:00.
    func daily(_ name: String, pinnedTo zone: String? = nil) -> Medication {
        Medication(
            name: name, schedule: MedicationSchedule(kind: .times, times: [ClockTime(hour: 8, minute: 0)]),
            timeZone: zone)
    }

    func doses(_ db: AppDatabase, _ m: Medication) throws -> [Dose] {
        try db.medications.doses(from: local(1, 0), to: local(40, 0), medicationID: m.id!)
    }

    /// A fresh database with these medications added at 05:00 UTC on 15 January and planned in Warsaw.
    func plannedInWarsaw(_ medications: [Medication]) throws -> (AppDatabase, [Medication]) {
        let db = try AppDatabase.inMemory()
        let added = LocalTime.instant(year: 2027, month: 1, day: 15, hour: 5, in: utc)!
        let saved = try medications.map { try db.medications.add($0, now: added) }
        try db.medications.planDoses(now: added, zone: warsaw)
        return (db, saved)
    }

    func pendingDoseFireTimes(_ db: AppDatabase, _ m: Medication) throws -> [Date] {
        try doses(db, m).flatMap { try db.deliveries.of(itemKind: .medication, itemID: $0.id!) }
            .filter { $0.state == .pending }.map(\.trigger.fireAt).sorted()
    }

    @Test func aZoneChangeMovesUnpinnedDosesToTheNewWallClockAndLeavesPinnedOnes() throws {
        let (db, meds) = try plannedInWarsaw([daily("Iron"), daily("Thyroid", pinnedTo: "Europe/Warsaw")])
        let (iron, pinned) = (meds[0], meds[1])
        let warsawEight = [local(15, 8), local(16, 8)]  // 07:00 UTC
        #expect(try doses(db, iron).map(\.scheduledAt) == warsawEight)
        #expect(try pendingDoseFireTimes(db, iron) == warsawEight)

        // Still before the first dose (Thursday 23:30 in New York): the user flies, the zone changes.
        let now = LocalTime.instant(year: 2027, month: 1, day: 15, hour: 5, minute: 30, in: utc)!
        try db.replanForZoneChange(now: now, zone: newYork)
        let newYorkEight = [local(15, 8, in: newYork), local(16, 8, in: newYork)]  // 13:00 UTC
        #expect(try doses(db, iron).map(\.scheduledAt) == newYorkEight)
        #expect(try pendingDoseFireTimes(db, iron) == newYorkEight, "deliveries must follow the doses")
        #expect(newYorkEight.map { Int($0.timeIntervalSince1970) % 86_400 } == [13 * 3600, 13 * 3600])
        #expect(try doses(db, pinned).map(\.scheduledAt) == warsawEight, "a pinned medication must not move")
        #expect(try pendingDoseFireTimes(db, pinned) == warsawEight)

        // And back: the same wall clock again, nothing doubled.
        try db.replanForZoneChange(now: now.addingTimeInterval(60), zone: warsaw)
        #expect(try doses(db, iron).map(\.scheduledAt) == warsawEight)
        #expect(try pendingDoseFireTimes(db, iron) == warsawEight)
    }

    @Test func aReplanRecordsItsZoneSoAStartInAnotherZoneCanTell() throws {
        let (db, _) = try plannedInWarsaw([daily("Iron")])
        #expect(try db.plannedZone() == nil, "nothing says which zone plain planning used")
        try db.replanForZoneChange(
            now: LocalTime.instant(year: 2027, month: 1, day: 15, hour: 5, minute: 30, in: utc)!, zone: newYork)
        #expect(try db.plannedZone() == "America/New_York")
        try db.replanForZoneChange(
            now: LocalTime.instant(year: 2027, month: 1, day: 15, hour: 6, in: utc)!, zone: warsaw)
        #expect(try db.plannedZone() == "Europe/Warsaw")
    }

    @Test func aZoneChangeKeepsAnsweredDosesAndInventsNoOverdueOnes() throws {
        let (db, meds) = try plannedInWarsaw([daily("Iron")])
        let iron = meds[0]
        // Taken at 08:00 in Warsaw.
        let first = try #require(try doses(db, iron).first)
        let trigger = try #require(try db.deliveries.due(at: local(15, 8)).first)
        try db.deliveries.markFired([trigger.key], at: local(15, 8))
        try db.medications.doseShown(trigger, at: local(15, 8), nagInterval: 600)
        _ = try db.medications.answerDose(id: first.id!, .taken, confirmedAt: local(15, 8, 5), now: local(15, 8, 5))

        // 10:00 in New York (16:00 in Warsaw): today's 08:00 there has passed, and was taken in Warsaw.
        let now = local(15, 10, in: newYork)
        try db.replanForZoneChange(now: now, zone: newYork)
        let after = try doses(db, iron)
        #expect(after.first?.id == first.id && after.first?.state == .taken, "the taken dose must stay: \(after)")
        #expect(
            after.map(\.scheduledAt) == [local(15, 8), local(16, 8, in: newYork), local(17, 8, in: newYork)],
            "only doses after the change may be planned in the new zone (no invented overdue 08:00 today): \(after)")
        #expect(try pendingDoseFireTimes(db, iron) == [local(16, 8, in: newYork), local(17, 8, in: newYork)])
    }

    // MARK: - iCalendar import by UID

    func imported(_ uid: String, _ title: String, day: Int) -> Appointment {
        Appointment(
            title: title, start: local(day, 14), durationSeconds: 2700, address: "ul. Długa 5",
            notes: "line one\nline two",
            category: "hair", reminders: [.before(1800)], timeZone: "Europe/Warsaw",
            recurrence: AppointmentRecurrence(rule: "FREQ=WEEKLY;INTERVAL=6"), uid: uid)
    }

    @Test func importInsertsThenLeavesIdenticalEventsAloneAndUpdatesChangedOnes() throws {
        let db = try AppDatabase.inMemory()
        let now = local(15, 10, 30)
        let events = [
            imported("abc123@google.com", "Strzyżenie", day: 18), imported("def456@google.com", "Manicure", day: 20),
        ]

        let first = try db.appointments.importAll(events, now: now, zone: warsaw)
        #expect(first.inserted == 2 && first.updated == 0 && first.unchanged == 0)
        let stored = try db.appointments.list()
        #expect(stored.map(\.uid) == ["abc123@google.com", "def456@google.com"])
        #expect(stored.map(\.title) == ["Strzyżenie", "Manicure"])
        #expect(stored.allSatisfy { $0.recurrence?.rule == "FREQ=WEEKLY;INTERVAL=6" && $0.timeZone == "Europe/Warsaw" })
        let haircut = try #require(try db.appointments.get(uid: "abc123@google.com"))
        #expect(
            try pending(db, haircut).map(\.trigger.fireAt) == [local(18, 13, 30)], "an imported series is planned too")

        let again = try db.appointments.importAll(events, now: now.addingTimeInterval(60), zone: warsaw)
        #expect(again.inserted == 0 && again.updated == 0 && again.unchanged == 2)
        #expect(
            try db.appointments.list() == stored, "an identical import must not touch anything (updatedAt included)")

        var changed = events
        changed[1].title = "Manicure hybrydowy"
        let third = try db.appointments.importAll(changed, now: now.addingTimeInterval(120), zone: warsaw)
        #expect(third.inserted == 0 && third.updated == 1 && third.unchanged == 1)
        let manicure = try #require(try db.appointments.get(uid: "def456@google.com"))
        #expect(manicure.id == stored[1].id && manicure.title == "Manicure hybrydowy")
        #expect(manicure.createdAt == stored[1].createdAt && manicure.updatedAt == now.addingTimeInterval(120))
        #expect(try db.appointments.count() == 2)
    }

    @Test func reimportingAnExportMatchesTheRowItCameFromAndKeepsWhatICalendarCannotSay() throws {
        let db = try AppDatabase.inMemory()
        let now = local(15, 10, 30)
        let salon = try db.contacts.add(Contact(name: "Salon Anna", phone: "+48 600 100 200"))
        var local1 = Appointment(title: "Henna", start: local(19, 11), contactID: salon.id, reminders: [.before(3600)])
        local1.repeatAfterDoneSeconds = 42 * 86_400
        let saved = try db.appointments.add(local1, now: now, zone: warsaw)
        #expect(saved.uid == nil && saved.effectiveUID == "appointment-\(saved.id!)@beautyd")
        #expect(try db.appointments.get(uid: saved.effectiveUID)?.id == saved.id)
        #expect(try db.appointments.get(uid: "appointment-999@beautyd") == nil)
        var done = saved
        done.status = .done
        _ = try db.appointments.update(done, now: now, zone: warsaw)

        // What the export writes and the import reads back: no id, no contact id (a name), done, the cycle.
        let exported = CalendarEvent(try db.appointments.get(id: saved.id!), contactName: "Salon Anna").appointment()
        #expect(exported.uid == saved.effectiveUID && exported.status == .done && exported.contactID == nil)
        #expect(exported.repeatAfterDoneSeconds == 42 * 86_400)
        let unchanged = try db.appointments.importAll([exported], now: now.addingTimeInterval(60), zone: warsaw)
        #expect(unchanged.inserted == 0 && unchanged.updated == 0 && unchanged.unchanged == 1, "\(unchanged)")
        let row = try db.appointments.get(id: saved.id!)
        #expect(row.uid == nil, "the row keeps its own UID, it gets no copy of it")
        #expect(row.status == .done && row.contactID == salon.id && row.repeatAfterDoneSeconds == 42 * 86_400)

        var retitled = exported
        retitled.title = "Henna brwi"
        let updated = try db.appointments.importAll([retitled], now: now.addingTimeInterval(120), zone: warsaw)
        #expect(updated.updated == 1 && updated.inserted == 0)
        let after = try db.appointments.get(id: saved.id!)
        #expect(after.title == "Henna brwi" && after.uid == nil && after.status == .done && after.contactID == salon.id)
        #expect(try db.appointments.count() == 1)
    }

    @Test func aContactNamedByTheFileIsLinkedOrCreatedWithItsPhoneInTheSameTransaction() throws {
        let db = try AppDatabase.inMemory()
        let now = local(15, 10, 30)
        let anna = try db.contacts.add(Contact(name: "Salon Anna", phone: "+48 600 100 200"))
        let appointments = (1...4).map {
            Appointment(title: "Visit \($0)", start: local(19, 10 + $0), uid: "v\($0)@example.org")
        }
        let contacts: [Contact?] = [
            Contact(name: "salon anna", phone: ""), Contact(name: "Spa Ewa", phone: "22 123 45 67"),
            Contact(name: "spa ewa", phone: "22 123 45 67"), Contact(name: "Nobody", phone: ""),
        ]
        let counts = try db.appointments.importAll(appointments, contacts: contacts, now: now, zone: warsaw)
        #expect(counts.inserted == 4 && counts.contactsCreated == 1 && counts.unlinked == [3], "\(counts)")
        let ewa = try #require(try db.contacts.all().first { $0.name == "Spa Ewa" })
        #expect(ewa.phone == "22 123 45 67")
        let linked = try db.appointments.list().map(\.contactID)
        #expect(linked == [anna.id, ewa.id, ewa.id, nil])
        #expect(try db.contacts.count() == 2)
    }

    @Test func contactImportMatchesByUIDThenNameAndIsIdempotent() throws {
        let db = try AppDatabase.inMemory()
        let anna = try db.contacts.add(Contact(name: "Salon Anna", phone: "+48 600 100 200", email: "anna@example.com"))
        let cards = [
            Contact(name: "SALON ANNA", phone: "+48 600 100 201", uid: "urn:uuid:a"),
            Contact(name: "Spa Ewa", phone: "22 123 45 67", uid: "urn:uuid:e"),
        ]
        #expect(try db.contacts.import(cards) == ContactImportCounts(inserted: 1, updated: 1, unchanged: 0))
        let updated = try db.contacts.contact(id: anna.id!)
        #expect(
            updated.phone == "+48 600 100 201" && updated.email == "anna@example.com" && updated.uid == "urn:uuid:a")
        #expect(try db.contacts.import(cards) == ContactImportCounts(inserted: 0, updated: 0, unchanged: 2))
        #expect(try db.contacts.count() == 2)
        // Another contact of the same name but another UID is another contact.
        #expect(
            try db.contacts.import([Contact(name: "Salon Anna", phone: "1 2 3", uid: "urn:uuid:other")]).inserted == 1)
        try db.contacts.assignMissingUIDs()
        #expect(try db.contacts.all().allSatisfy { $0.uid != nil })
    }

    @Test func contactNamesMatchInAnyCaseOfAnyAlphabet() throws {
        let db = try AppDatabase.inMemory()
        let lucja = try db.contacts.add(Contact(name: "Salon Łucja", phone: "+48 600 100 200"))
        #expect(
            try db.contacts.import([Contact(name: "SALON ŁUCJA", phone: "+48 600 100 201")])
                == ContactImportCounts(inserted: 0, updated: 1, unchanged: 0))
        #expect(try db.contacts.contact(id: lucja.id!).phone == "+48 600 100 201")
        // A name is an identity here: without its diacritics it is another contact.
        #expect(try db.contacts.import([Contact(name: "Salon Lucja", phone: "+48 600 100 202")]).inserted == 1)
        let counts = try db.appointments.importAll(
            [Appointment(title: "Strzyżenie", start: local(19, 10), uid: "s@example.org")],
            contacts: [Contact(name: "salon łucja", phone: "")], now: local(15, 10), zone: warsaw)
        #expect(counts.contactsCreated == 0 && counts.unlinked.isEmpty, "\(counts)")
        #expect(try db.appointments.list().map(\.contactID) == [lucja.id])
    }
}
