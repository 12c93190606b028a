import ArgumentParser
import Foundation

/// ArgumentParser keeps the last value of an option that takes one (`--from a --from b` is `b`), so a
/// mistyped command would run with half of what was typed. Options that may repeat are arrays; every
/// other option given twice is a usage error naming it. The command's own description (the JSON of
/// `--experimental-dump-help`) says which options take one value, so a new option is covered as it is written.
enum SingleValueOptions {
    static func check(_ command: any ParsableCommand.Type, _ arguments: ArraySlice<String>) throws {
        let names = singleValued(command)
        var seen = Set<String>()
        for argument in arguments {
            if argument == "--" { break }
            let name = argument.hasPrefix("--") ? String(argument.split(separator: "=", maxSplits: 1)[0]) : argument
            guard let option = names[name] else { continue }
            guard seen.insert(option).inserted else {
                throw CLIFailure(.usage, Output.l.tr("%s: given twice, but it takes one value", option))
            }
        }
    }

    /// Each spelling (`--from`, `-f`) of an option that takes one value, mapped to its first spelling.
    static func singleValued(_ command: any ParsableCommand.Type) -> [String: String] {
        guard let dump = try? JSONSerialization.jsonObject(with: Data(command._dumpHelp().utf8)) as? [String: Any],
            let info = dump["command"] as? [String: Any], let arguments = info["arguments"] as? [[String: Any]]
        else { return [:] }
        var result: [String: String] = [:]
        for argument in arguments
        where argument["kind"] as? String == "option" && argument["isRepeating"] as? Bool != true {
            let spellings = (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return (name["kind"] as? String == "long" ? "--" : "-") + text
            }
            for spelling in spellings { result[spelling] = spellings.first }
        }
        return result
    }
}
