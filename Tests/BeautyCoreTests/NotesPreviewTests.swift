import BeautyCore
import Foundation
import Testing

@Suite("The notes a reminder shows")
struct NotesPreviewTests {
    @Test func theFirstNonEmptyLinesCutToLength() {
        #expect(NotificationText.notesPreview(nil).isEmpty)
        #expect(NotificationText.notesPreview(" \n ").isEmpty)
        #expect(NotificationText.notesPreview("a\r\n\n  b  \nc") == ["a", "b", "c"])
        #expect(NotificationText.notesPreview("a\nb\nc\nd") == ["a", "b", "c …"])
        let long = String(repeating: "x", count: 150)
        #expect(NotificationText.notesPreview(long) == [String(repeating: "x", count: 99) + "…"])
    }
}
