import BeautyCore
import Foundation

/// Method names mirror the CLI.
public enum Method: String, CaseIterable, Sendable {
    case status
    case appointmentAdd = "appointment.add"
    case appointmentList = "appointment.list"
    case appointmentShow = "appointment.show"
    case appointmentEdit = "appointment.edit"
    case appointmentRemove = "appointment.rm"
    case appointmentDone = "appointment.done"
    case appointmentCancel = "appointment.cancel"
    case appointmentSplit = "appointment.split"
    case contactAdd = "contact.add"
    case contactList = "contact.list"
    case contactShow = "contact.show"
    case contactEdit = "contact.edit"
    case contactRemove = "contact.rm"
    case contactImport = "contact.import"
    case contactExport = "contact.export"
    case appointmentImport = "appointment.import"
    case appointmentExport = "appointment.export"
    case appointmentExportICS = "appointment.exportICS"
    // A staged import in chunks (AppointmentImportStageMethods.swift)
    case appointmentImportBegin = "appointment.importBegin"
    case appointmentImportChunk = "appointment.importChunk"
    case appointmentImportCommit = "appointment.importCommit"
    case appointmentImportAbort = "appointment.importAbort"
    case medAdd = "med.add"
    case medList = "med.list"
    case medShow = "med.show"
    case medEdit = "med.edit"
    case medRemove = "med.rm"
    case medMove = "med.move"
    case medRefill = "med.refill"
    case doseTaken = "dose.taken"
    case doseSkip = "dose.skip"
    case doseSnooze = "dose.snooze"
    case doseLog = "dose.log"
    case history
    case notifications
    // Body measurements (MeasurementController.swift)
    case measureAdd = "measure.add"
    case measureList = "measure.list"
    case measureCount = "measure.count"
    case measureClear = "measure.clear"
    case measureChart = "measure.chart"
    // Tips and water (TipController.swift, WaterController.swift)
    case tips
    case tipRandom = "tip.random"
    case waterAdd = "water.add"
    case waterTotal = "water.total"
    case waterGoal = "water.goal"
    case waterRemind = "water.remind"
    case waterImport = "water.import"
    case waterList = "water.list"
    case waterEdit = "water.edit"
    case waterRemove = "water.rm"
    // Budget and categories (BudgetRequests.swift)
    case budgetAdd = "budget.add"
    case budgetList = "budget.list"
    case budgetShow = "budget.show"
    case budgetEdit = "budget.edit"
    case budgetRemove = "budget.rm"
    case budgetBalance = "budget.balance"
    // Backup and restore (BackupRequests.swift)
    case backup
    case restore
    // CalDAV sync (SyncController.swift)
    case syncAdd = "sync.add"
    case syncList = "sync.list"
    case syncStatus = "sync.status"
    case syncNow = "sync.now"
    case syncRemove = "sync.rm"
    case syncTrash = "sync.trash"
    case syncRestoreDeleted = "sync.restoreDeleted"
    case syncDoses = "sync.doses"
    case categories
    case message
    case agenda
    case now
    case subscribe
}

public struct IDParams: Codable, Sendable {
    public var id: Int64
    public init(id: Int64) { self.id = id }
}

public enum BeautyVersion {
    public static let current = "0.1.0"
}
