@testable import BeautyCLI
import Testing

@Suite("CSV fields: RFC 4180 quoting, formulas made inert")
struct CSVFieldTests {
    @Test("issue 21: a cell starting with = + - @, a tab or a CR gets a leading quote; plain numbers stay numbers")
    func formulaCellsAreInert() {
        #expect(Output.csvField("=HYPERLINK(\"http://x\",\"y\")") == #""'=HYPERLINK(""http://x"",""y"")""#)
        #expect(Output.csvField("+48 600") == "'+48 600")
        #expect(Output.csvField("-2+3") == "'-2+3")
        #expect(Output.csvField("@SUM(A1)") == "'@SUM(A1)")
        #expect(Output.csvField("\tx") == "'\tx")
        #expect(Output.csvField("\rx") == "\"'\rx\"")
        #expect(Output.csvField("-12.99") == "-12.99")
        #expect(Output.csvField("4500.00") == "4500.00")
        #expect(Output.csvField("Haircut = short") == "Haircut = short")
        #expect(Output.csvField("a,b") == "\"a,b\"")
    }
}
