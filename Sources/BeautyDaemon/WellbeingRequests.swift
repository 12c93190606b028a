import BeautyCore
import BeautyProtocol
import BeautyNotify
import Foundation

/// tips / tip.random / water.*.
extension RequestHandler {
    func wellbeing(_ method: Method, id: RPCID?, line: Data) async -> Data? {
        await call(id, line) { (_: NoParams) -> String in throw ValidationError(field: "method", "\(method.rawValue) is not implemented yet") }
    }
}

extension NotificationContent {
    /// A water reminder or the daily tip; nil when it is no longer wanted (today's water goal reached).
    func plannerNotice(_ trigger: Trigger, now: Date) throws -> DesktopNotification? { nil }
}
