import BeautyCore
import BeautyNotify
import BeautyProtocol
import BeautyStore
import Foundation
import Logging

/// What the notification server tells: it appeared or left, a button was pressed, a notification closed.
extension Scheduler {
    func consumeNotifierEvents() async {
        for await event in notifier.events {
            if Task.isCancelled { return }
            await handle(event)
        }
    }

    private func handle(_ event: NotifierEvent) async {
        let now = clock()
        do {
            switch event {
            case .serverAppeared:
                logger.info("notification server appeared on the bus")
                wake(.serverAppeared)
            case .serverVanished:
                logger.notice("notification server left the bus; reminders will wait for it")
            case let .action(key, action) where key.hasPrefix(ItemKind.medication.rawValue + "/"):
                guard let trigger = try store.deliveries.find(key: key)?.trigger else { return }
                if let state = NotificationAction(rawValue: action)?.doseAnswer {
                    _ = try await answerDose(id: trigger.itemID, state, at: now)
                }
            case .closed(let key, _) where key.hasPrefix(ItemKind.medication.rawValue + "/"):
                break  // closing a dose popup is not an answer: it will be shown again
            case let .action(key, action) where NotificationAction(rawValue: action) == .snooze:
                guard try store.deliveries.settle(key, as: .snoozed, at: now) > 0 else { return }
                let until = now.addingTimeInterval(TimeInterval(config.snoozeSeconds))
                _ = try store.deliveries.scheduleSnooze(of: key, until: until)
                logger.info("reminder snoozed until \(Timestamps().short(until))", metadata: ["delivery_key": "\(key)"])
                hub.publish(DaemonEvent(.snoozed, at: now, key: key, detail: WireJSON.formatInstant(until)))
                wake(.edited)
            case let .action(key, action)
            where NotificationAction(rawValue: action) == .drinkGlass && key.hasPrefix(ItemKind.water.rawValue + "/"):
                let drink = WaterRecord(uuid: UUID().uuidString, amountMl: NotificationAction.glassMl, start: now)
                guard let glass = try store.water.drinkFromReminder(key, drink, at: now) else { return }
                logger.info(
                    "water logged from a reminder: \(glass.amountMl) ml",
                    metadata: ["item_id": "\(glass.id ?? 0)", "item_kind": "water"])
                hub.publish(DaemonEvent(.dismissed, at: now, key: key))
            case let .action(key, action) where NotificationAction(rawValue: action) == .dismiss:
                if try store.deliveries.settle(key, as: .dismissed, at: now) > 0 {
                    hub.publish(DaemonEvent(.dismissed, at: now, key: key))
                }
            case let .closed(key, reason) where CloseReason(code: reason) == .dismissed:
                if try store.deliveries.settle(key, as: .dismissed, at: now) > 0 {
                    hub.publish(DaemonEvent(.dismissed, at: now, key: key))
                }
            case .action, .closed:
                break
            }
        } catch {
            logger.error("could not record the answer \(event): \(error)")
        }
    }
}
