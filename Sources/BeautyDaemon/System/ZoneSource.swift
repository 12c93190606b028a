import Dispatch
import Foundation

/// Where the daemon reads the user's time zone: the live `LocalZone` in beautyd, a settable one in
/// tests. Requests read `current` for local-time texts and plans; the scheduler re-plans on a change.
public protocol ZoneSource: AnyObject, Sendable {
    var current: TimeZone { get }
    /// Calls `onChange` (on `queue`) whenever the zone really changes.
    func watch(queue: DispatchQueue, onChange: @escaping @Sendable (TimeZone) -> Void)
}

extension LocalZone: ZoneSource {}
