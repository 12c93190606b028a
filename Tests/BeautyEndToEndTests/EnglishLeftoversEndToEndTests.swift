import BeautyTestSupport
import Foundation
import Testing

/// What issue 24's reader still found in English under Polish and Slovak, read back through real
/// beautyctl against the real daemon: help placeholders, the field an error names, a system error.
struct EnglishLeftover: Sendable, CustomTestStringConvertible {
    var locale: String
    /// What a translated placeholder and field name read as.
    var time: String
    var subcommand: String
    var titleField: String
    var noSuchFile: String

    var testDescription: String { locale }

    static let polish = EnglishLeftover(
        locale: "pl_PL.UTF-8", time: "--at <czas>", subcommand: "<podpolecenie>",
        titleField: "tytuł: ", noSuchFile: "Nie ma takiego pliku ani katalogu")
    static let slovak = EnglishLeftover(
        locale: "sk_SK.UTF-8", time: "--at <čas>", subcommand: "<podpríkaz>",
        titleField: "názov: ", noSuchFile: "Taký súbor ani priečinok neexistuje")
}

extension EndToEndTiming {
    @Suite("Polish and Slovak: English words left in help, errors and system messages", .serialized)
    struct EnglishLeftovers {
        static let english = [
            "<time>", "<amount>", "<subcommand>", "<options>", "<name>", "<file>", "<path>",
            "title:", "amount:", "occurrence:", "start:", "No such file or directory",
        ]

        static func englishWords(in text: String) -> [String] { english.filter { text.contains($0) } }

        @Test(arguments: [EnglishLeftover.polish, .slovak])
        func noEnglishLeft(language: EnglishLeftover) async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            stack.locale = language.locale

            let root = try await stack.beautyctlOK(["--help"])
            #expect(root.stdout.contains(language.subcommand) && Self.englishWords(in: root.stdout).isEmpty, "\(root)")
            let water = try await stack.beautyctlOK(["water", "add", "--help"])
            #expect(water.stdout.contains(language.time) && Self.englishWords(in: water.stdout).isEmpty, "\(water)")
            let usage = try await stack.beautyctl(["water", "add"])
            #expect(usage.status == .exited(2) && Self.englishWords(in: usage.stderr).isEmpty, "\(usage)")

            let untitled = try await stack.beautyctl(["appointment", "add", " ", "--at", "2030-12-05 10:00"])
            #expect(
                untitled.stderr.contains(language.titleField) && Self.englishWords(in: untitled.stderr).isEmpty,
                "\(untitled)")

            let backup = try await stack.beautyctl(["backup", stack.directory + "/missing/beauty.db"])
            #expect(
                backup.stderr.contains(language.noSuchFile) && Self.englishWords(in: backup.stderr).isEmpty, "\(backup)"
            )

            // The schema step by its version: no developer's English after it.
            let saved = try await stack.beautyctlOK(["backup", stack.directory + "/copy.db"])
            let schema = saved.stdout.split(separator: "„").last.map { $0.prefix { $0 != "”" && $0 != "“" } } ?? ""
            #expect(schema.hasPrefix("v") && !schema.contains(" "), "\(saved)")
        }
    }
}
