import BeautyCore
import Foundation
import GRDB

/// AppointmentRecord's columns written and read one by one rather than through Codable: imports,
/// exports and full-range agendas move every row, and GRDB's Codable bridge costs several times the
/// SQLite work. The stored values are the ones the Codable bridge stores (dates as GRDB dates, the
/// recurrence as GRDB's JSON of it); the store's tests read back what they write.
extension AppointmentRecord {
    func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["title"] = title
        container["start"] = start
        container["durationSeconds"] = durationSeconds
        container["allDay"] = allDay
        container["address"] = address
        container["notes"] = notes
        container["contactId"] = contactId
        container["category"] = category
        container["color"] = color
        container["priceCents"] = priceCents
        container["currency"] = currency
        container["status"] = status
        container["timeZone"] = timeZone
        container["recurrence"] = try recurrence.map {
            String(decoding: try Self.databaseJSONEncoder(for: "recurrence").encode($0), as: UTF8.self)
        }
        container["repeatAfterDoneSeconds"] = repeatAfterDoneSeconds
        container["uid"] = uid
        container["seriesId"] = seriesId
        container["recurrenceId"] = recurrenceId
        container["tags"] = try tags.map(Self.jsonText)
        container["extraProperties"] = try extraProperties.map(Self.jsonText)
        container["plannedUntil"] = plannedUntil
        container["createdAt"] = createdAt
        container["updatedAt"] = updatedAt
    }

    init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        title = try row.decode(forColumn: "title")
        start = try row.decode(forColumn: "start")
        durationSeconds = try row.decode(forColumn: "durationSeconds")
        allDay = try row.decode(forColumn: "allDay")
        address = try row.decode(forColumn: "address")
        notes = try row.decode(forColumn: "notes")
        contactId = try row.decode(forColumn: "contactId")
        category = try row.decode(forColumn: "category")
        color = try row.decode(forColumn: "color")
        priceCents = try row.decode(forColumn: "priceCents")
        currency = try row.decode(forColumn: "currency")
        status = try row.decode(forColumn: "status")
        timeZone = try row.decode(forColumn: "timeZone")
        if let json: String = try row.decode(forColumn: "recurrence") {
            recurrence = try Self.databaseJSONDecoder(for: "recurrence").decode(AppointmentRecurrence.self, from: Data(json.utf8))
        } else {
            recurrence = nil
        }
        repeatAfterDoneSeconds = try row.decode(forColumn: "repeatAfterDoneSeconds")
        uid = try row.decode(forColumn: "uid")
        seriesId = try row.decode(forColumn: "seriesId")
        recurrenceId = try row.decode(forColumn: "recurrenceId")
        tags = try Self.stringList(row, "tags")
        extraProperties = try Self.stringList(row, "extraProperties")
        plannedUntil = try row.decode(forColumn: "plannedUntil")
        createdAt = try row.decode(forColumn: "createdAt")
        updatedAt = try row.decode(forColumn: "updatedAt")
    }

    private static func jsonText(_ list: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(list), as: UTF8.self)
    }

    private static func stringList(_ row: Row, _ column: String) throws -> [String]? {
        guard let json: String = try row.decode(forColumn: column) else { return nil }
        return try JSONDecoder().decode([String].self, from: Data(json.utf8))
    }
}
