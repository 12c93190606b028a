@testable import BeautyCore
import BeautyLocalization
import Testing

@Suite("Codes typed as any language's word: colours, SMS templates, agenda kinds")
struct TypedWordTests {
    @Test(
        "różowy, różowa, ruzova, ružová and pink all name pink, whatever the current language; an unknown word is nil")
    func coloursInEveryLanguage() {
        for typed in ["pink", "PINK", "różowy", "różowa", "rozowe", "ružová", "ruzovy"] {
            #expect(TerminalColor.code(typed: typed) == "pink", "\(typed)")
        }
        #expect(TerminalColor.code(typed: "sivá") == "gray")
        #expect(TerminalColor.code(typed: "zielona") == "green")
        #expect(
            TerminalColor.code(typed: "#ff00aa") == "#ff00aa",
            "anything else stays as typed, for the validation to judge")
        #expect(TerminalColor.code(typed: "kolorowy") == "kolorowy")
        #expect(TerminalColor.pink.title(.forLanguage(.polish)) == "różowy")
        #expect(TerminalColor.pink.title(.forLanguage(.slovak)) == "ružová")
    }

    @Test("message templates as verbs: umów, potwierdź, odwołaj; objednať, potvrdiť, zrušiť; book, confirm, cancel")
    func messageTemplates() {
        #expect(
            MessageTemplate(typed: "umów") == .book && MessageTemplate(typed: "umow") == .book
                && MessageTemplate(typed: "objednať") == .book)
        #expect(MessageTemplate(typed: "potwierdź") == .confirm && MessageTemplate(typed: "potvrdit") == .confirm)
        #expect(
            MessageTemplate(typed: "odwołaj") == .cancel && MessageTemplate(typed: "zrušiť") == .cancel
                && MessageTemplate(typed: "Cancel") == .cancel)
        #expect(MessageTemplate(typed: "wyślij") == nil)
    }

    @Test("a word two codes share names neither")
    func ambiguousWordIsNil() {
        let word: (String, Localizer) -> String = { code, _ in code == "a" ? "wspolne" : "wspolne" }
        #expect(TypedWord.code("wspólne", among: ["a", "b"], word: word) == nil)
        #expect(TypedWord.code("b", among: ["a", "b"], word: word) == "b")
    }
}
