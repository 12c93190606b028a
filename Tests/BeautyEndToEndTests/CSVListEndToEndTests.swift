import BeautyCore
import BeautyProtocol
import BeautyTestSupport
import Foundation
import Testing

extension EndToEndBus {
    @Suite("--csv wherever a record list has --json", .serialized)
    struct CSVLists {
        @Test(
            "appointment, contact, med, water, budget, measure lists and agenda print CSV: a header, quoted fields, ISO times"
        )
        func listsAsCSV() async throws {
            let stack = try await Stack.start(server: false, config: "[money]\ncurrency = \"PLN\"\n")
            defer { stack.shutdown() }
            _ = try await stack.beautyctlOK(["contact", "add", "Salon \"Anna\", Kraków", "--phone", "+48 600 100 200"])
            _ = try await stack.beautyctlOK([
                "appointment", "add", "Haircut", "--at", "2030-03-04 10:00", "--contact", "1",
                "--price", "45,50", "--notes", "short,\nlayered", "--category", "hair/cut",
            ])
            _ = try await stack.beautyctlOK([
                "med", "add", "Vitamin D", "--dose", "1 capsule", "--at", "08:00", "--stock", "60",
            ])
            let water = try await stack.beautyctlJSON(
                ["water", "add", "250", "--at", "in 0s"], as: WaterAddResult.self
            ).record
            _ = try await stack.beautyctlOK(["budget", "add", "Szampon", "12,99", "--at", "2030-01-05 09:00"])
            _ = try await stack.beautyctlOK([
                "measure", "add", "--weight", "62,5", "--height", "168", "--date", "2026-11-20",
            ])

            func csv(_ arguments: [String]) async throws -> [String] {
                try await stack.beautyctlOK(arguments + ["--csv"]).stdout.split(
                    separator: "\n", omittingEmptySubsequences: false
                )
                .dropLast().map(String.init)
            }
            let contacts = try await csv(["contact", "list"])
            #expect(
                contacts == [
                    "id,name,phone,email,first_name,last_name,address",
                    #"1,"Salon ""Anna"", Kraków",'+48 600 100 200,,,,"#,
                ])
            let appointments = try await csv(["appointment", "list"])
            #expect(
                appointments.first
                    == "id,title,start,end,all_day,status,category,color,contact_id,price,currency,address,notes")
            #expect(
                appointments.dropFirst().joined(separator: "\n")
                    == "1,Haircut,2030-03-04T09:00:00Z,2030-03-04T10:00:00Z,false,scheduled,hair/cut,,1,45.50,PLN,,\"short,\nlayered\"",
                "\(appointments)")
            let meds = try await csv(["med", "list"])
            #expect(
                meds.first == "position,id,name,dose,schedule,stock,low_stock,notes" && meds.count == 2
                    && meds[1].hasPrefix("1,1,Vitamin D,1 capsule,") && meds[1].hasSuffix(",60,,"), "\(meds)")
            let waters = try await csv(["water", "list"])
            #expect(
                waters == [
                    "id,uuid,amount_ml,start,end",
                    "\(water.id!),\(water.uuid),250,\(WireJSON.formatInstant(water.start)),",
                ], "\(waters)")
            let budget = try await csv(["budget", "list"])
            #expect(
                budget == [
                    "id,at,kind,amount,currency,name,appointment_id",
                    "1,2030-01-05T08:00:00Z,expense,-12.99,PLN,Szampon,",
                ], "\(budget)")
            let measures = try await csv(["measure", "list"])
            #expect(
                measures == ["day,weight_kg,height_cm,bmi,class", "2026-11-20,62.5,168,22.1,normal weight"],
                "\(measures)")
            let agenda = try await csv([
                "agenda", "--from", "2030-03-01", "--to", "2030-04-01", "--kind", "appointment",
            ])
            #expect(
                agenda == [
                    "kind,id,title,start,end,all_day,status,category,address,contact",
                    #"appointment,1,Haircut,2030-03-04T09:00:00Z,2030-03-04T10:00:00Z,false,scheduled,hair/cut,,"Salon ""Anna"", Kraków""#,
                ],
                "\(agenda)")
            let empty = try await csv(["budget", "list", "--from", "2031-01-01"])
            #expect(empty == ["id,at,kind,amount,currency,name,appointment_id"], "an empty list is a header alone")

            let both = try await stack.beautyctl(["budget", "list", "--json", "--csv"])
            #expect(both.status == .exited(2) && both.stderr.contains("--json and --csv"), "\(both)")
        }
    }
}
