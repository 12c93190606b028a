import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("Measurements: BMI, weight log, charts", .serialized)
    struct Measurements {
        @Test("bmi is computed by beautyctl alone, with its class; bad numbers exit 2")
        func bmiWithoutADaemon() async throws {
            let stack = try await Stack.start(server: false, daemon: false)
            defer { stack.shutdown() }
            let bmi = try await stack.beautyctl(["bmi", "--weight", "62,5", "--height", "168"])
            #expect(bmi.status == .exited(0) && bmi.stdout == "BMI 22.1: normal weight (18.5 ≤ BMI < 25)\n", "\(bmi)")
            let edge = try await stack.beautyctl(["bmi", "--weight", "72.25", "--height", "170"])
            #expect(edge.stdout.hasPrefix("BMI 25.0: overweight"), "\(edge)")
            let json: BMIReading = try await stack.beautyctlJSON(["bmi", "--weight", "45", "--height", "168"])
            #expect(json.bmiClass == .starvation && abs(json.bmi - 15.9439) < 0.0001 && json.weightKg == 45, "\(json)")
            for (weight, height, message) in [
                ("-5", "168", "more than 0"), ("0", "168", "more than 0"), ("1000", "168", "not a body weight"),
                ("62", "0", "more than 0"), ("62", "1,68", "metres"), ("6o", "168", "not a number"),
            ] {
                let bad = try await stack.beautyctl(["bmi", "--weight", weight, "--height", height])
                #expect(
                    bad.status == .exited(2) && bad.stderr.contains(message) && bad.stdout.isEmpty,
                    "\(weight) kg \(height) cm: \(bad)")
            }
        }

        @Test("measure add/list/replace/chart/clear through beautyctl and the socket; bad input stores nothing")
        func weightLog() async throws {
            let stack = try await Stack.start(server: false)
            defer { stack.shutdown() }
            let client = try stack.client()

            // No height known yet: stored without a BMI, and it says so.
            let first = try await stack.beautyctl(["measure", "add", "--weight", "63", "--date", "2026-11-20"])
            #expect(
                first.status == .exited(0) && first.stdout.hasPrefix("Saved 2026-11-20: 63.0 kg.\n")
                    && first.stdout.contains("no BMI"),
                "\(first)")
            // The same day again, with a height and a decimal comma: replaced, and said.
            let second = try await stack.beautyctl([
                "measure", "add", "--weight", "62,5", "--height", "168", "--date", "2026-11-20",
            ])
            #expect(second.status == .exited(0), "\(second)")
            #expect(
                second.stdout.contains("Saved 2026-11-20: 62.5 kg, BMI 22.1 (normal weight), height 168 cm."),
                "\(second)")
            #expect(second.stdout.contains("replaced the entry of 2026-11-20: 63.0 kg"), "\(second)")
            // Later entries take the last known height.
            let third = try await stack.beautyctl(["measure", "add", "--weight", "64.5", "--date", "2026-11-10"])
            #expect(
                third.stdout.contains("height 168 cm (as measured on 2026-11-20)")
                    && !third.stdout.contains("replaced"), "\(third)")
            let added: MeasurementAddResult = try client.call(
                "measure.add", MeasurementAddParams(weightKg: 63.4, day: try LocalDate(parsing: "2026-11-03")))
            #expect(added.replaced == nil && added.measurement.heightCm == 168 && added.measurement.bmiClass == .normal)

            let list: [BodyMeasurement] = try await stack.beautyctlJSON(["measure", "list"])
            #expect(list.map(\.day.description) == ["2026-11-03", "2026-11-10", "2026-11-20"])
            #expect(
                list.map(\.weightKg) == [63.4, 64.5, 62.5] && list.allSatisfy { $0.heightCm == 168 && $0.bmi != nil })
            let text = try await stack.beautyctl(["measure", "list"])
            #expect(
                text.status == .exited(0) && text.stdout.contains("2026-11-20  62.5  168  22.1  normal weight"),
                "\(text)")

            // Bad input: a usage error (2) from beautyctl, a refusal (-32602) from the daemon; nothing stored either way.
            for arguments in [
                ["--weight", "-5"], ["--weight", "0"], ["--weight", "1000"], ["--weight", "abc"],
                ["--weight", "62", "--height", "0"],
                ["--weight", "62", "--height", "-170"], ["--weight", "62", "--date", "2026-02-30"],
                ["--weight", "62", "--date", "2099-01-01"], ["--weight", "62", "--date", "30.02.2026"],
            ] {
                let bad = try await stack.beautyctl(["measure", "add"] + arguments)
                #expect(bad.status == .exited(2) && !bad.stderr.isEmpty && bad.stdout.isEmpty, "\(arguments): \(bad)")
            }
            let refusals = [
                #"{"weightKg":-1}"#, #"{"weightKg":0}"#, #"{"weightKg":1000}"#, #"{"weightKg":62,"heightCm":0}"#,
                #"{"weightKg":62,"day":"2099-01-01"}"#, #"{"weightKg":62,"day":"2026-02-30"}"#, #"{"weightKg":"62"}"#,
                #"{"day":"2026-11-03"}"#,
                #"{"weightKg":62,"day":"1850-01-01"}"#,
            ]
            for params in refusals {
                let answer = try client.roundTrip(
                    #"{"jsonrpc":"2.0","id":9,"method":"measure.add","params":\#(params)}"#)
                #expect(answer.errorCode == RPCErrorCode.invalidParams, "\(params): \(answer)")
            }
            let unchanged: [BodyMeasurement] = try client.call("measure.list", NoParams())
            #expect(unchanged == list)

            // Charts: the month's points over the socket, a terminal chart, an SVG file.
            let chart: MeasurementChartResult = try client.call(
                "measure.chart", MeasurementChartParams(month: CalendarMonth(year: 2026, month: 11), unit: .bmi))
            #expect(chart.points.map(\.day.day) == [3, 10, 20] && chart.days == 30)
            #expect(chart.min == list.compactMap(\.bmi).min() && chart.max == list.compactMap(\.bmi).max())
            let october: MeasurementChartResult = try client.call(
                "measure.chart", MeasurementChartParams(month: CalendarMonth(year: 2026, month: 10)))
            #expect(october.points.isEmpty && october.unit == .kg)
            let badMonth = try client.roundTrip(
                #"{"jsonrpc":"2.0","id":10,"method":"measure.chart","params":{"month":"2026-13"}}"#)
            #expect(
                badMonth.errorCode == RPCErrorCode.invalidParams
                    && badMonth.errorMessage?.contains("no month 13") == true, "\(badMonth)")

            let drawn = try await stack.beautyctl(["measure", "chart", "--month", "2026-11", "--unit", "kg"])
            #expect(drawn.status == .exited(0) && drawn.stdout.hasPrefix("Weight [kg], November 2026\n"), "\(drawn)")
            #expect(drawn.stdout.filter { $0 == "●" }.count == 3, "\(drawn.stdout)")
            #expect(
                drawn.stdout.contains(
                    "3 days with data: min 62.5 kg (20 Nov), max 64.5 kg (10 Nov), last 62.5 kg (20 Nov)"),
                "\(drawn.stdout)")
            let svgPath = stack.directory + "/weight.svg"
            let svg = try await stack.beautyctl([
                "measure", "chart", "--month", "2026-11", "--unit", "bmi", "--svg", svgPath,
            ])
            #expect(svg.status == .exited(0) && svg.stdout.contains("3 days with data"), "\(svg)")
            let file = try String(contentsOfFile: svgPath, encoding: .utf8)
            #expect(file.hasPrefix("<?xml") && file.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            #expect(file.components(separatedBy: #"<circle class="point""#).count - 1 == 3)
            #expect(file.contains("<title>Fri 20 Nov 2026: BMI 22.1 (normal weight)</title>"), "\(file)")
            for arguments in [
                ["--month", "2026-13"], ["--month", "nov"], ["--unit", "lb"],
                ["--svg", stack.directory + "/no/such/dir/x.svg", "--month", "2026-11"],
            ] {
                let bad = try await stack.beautyctl(["measure", "chart"] + arguments)
                #expect(bad.status == .exited(2) && !bad.stderr.isEmpty, "\(arguments): \(bad)")
            }
            let empty = try await stack.beautyctl(["measure", "chart", "--month", "2026-10"])
            #expect(empty.status == .exited(0) && empty.stdout.contains("No measurements in October 2026."), "\(empty)")

            // Clear: refused without --yes off a terminal, then done with it.
            let asked = try await stack.beautyctl(["measure", "clear"])
            #expect(asked.status == .exited(2) && asked.stderr.contains("--yes"), "\(asked)")
            #expect(try client.call("measure.list", NoParams(), as: [BodyMeasurement].self).count == 3)
            let cleared = try await stack.beautyctl(["measure", "clear", "--yes"])
            #expect(cleared.status == .exited(0) && cleared.stdout == "Deleted 3 measurements.\n", "\(cleared)")
            let none = try await stack.beautyctl(["measure", "list"])
            #expect(none.status == .exited(0) && none.stdout == "No measurements.\n", "\(none)")
            let again: MeasurementClearResult = try client.call("measure.clear", NoParams())
            #expect(again.removed == 0)

            // The log survives a restart of the daemon.
            _ = try await stack.beautyctl([
                "measure", "add", "--weight", "61", "--height", "168,5", "--date", "2026-11-21",
            ])
            _ = await stack.stopDaemon()
            _ = try await stack.startDaemon()
            let kept: [BodyMeasurement] = try await stack.beautyctlJSON(["measure", "list"])
            #expect(kept.map(\.day.description) == ["2026-11-21"] && kept.first?.heightCm == 168.5, "\(kept)")
        }
    }
}
