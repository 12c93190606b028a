// The agenda search's folding alone, optimised as a release build would be:
//
//     swiftc -O benchmarks/fold_search/main.swift Sources/BeautyCore/TextFolding.swift -o /tmp/fold_search && /tmp/fold_search
//
// 100,000 rows of title, notes and address, as `agenda --search` sees them, a third of the addresses
// with Polish or Slovak letters; `--search krakow` through three ways of comparing. The best of five runs.
import Foundation

let titles = ["Haircut", "Manicure", "Strzyżenie", "Masáž tváre", "Facial"]
let cities = ["Kraków", "Łódź", "Žilina", "Main Street"]
let rows = (0..<100_000).map { i in
    ["\(titles[i % 5]) \(i)", "", i % 4 == 0 ? "Salon \(i % 17), \(cities[i / 4 % 4]) \(i % 90)" : ""]
}

func measure(_ name: String, _ body: () -> Int) {
    var best = Double.infinity, found = 0
    for _ in 0..<5 {
        let start = Date()
        found = body()
        best = min(best, Date().timeIntervalSince(start))
    }
    print("\(name): \(String(format: "%.1f", best * 1000)) ms, \(found) found")
}

let needle = TextFolding.fold("krakow")
measure("lowercased(), then contains (ignores case only)") {
    rows.filter { $0.joined(separator: "\n").lowercased().contains("krakow") }.count
}
measure("Foundation range(of:options: [.caseInsensitive, .diacriticInsensitive])") {
    rows.filter { $0.joined(separator: "\n").range(of: "krakow", options: [.caseInsensitive, .diacriticInsensitive]) != nil }.count
}
measure("TextFolding.contains, field by field") {
    rows.filter { row in row.contains { TextFolding.contains($0, folded: needle) } }.count
}
