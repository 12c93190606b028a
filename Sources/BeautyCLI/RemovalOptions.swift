import ArgumentParser
import BeautyProtocol

/// What every `rm` takes besides the id: `--yes`, `--json` and the global options, and the flow
/// they make (ask, remove, print the JSON answer).
struct RemovalOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: ArgumentHelp(Output.l.tr("Do not ask for confirmation."))) var yes = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var global: GlobalOptions

    /// Unless `--yes`, asks on a terminal (`question` fetches what it names), then removes. The
    /// removed item, for the text to say, or nil when the user kept it or `--json` printed it.
    func remove<Gone: Encodable>(
        _ kind: String, id: Int64, _ rpc: RPC<IDParams, Gone>, question: (inout any RPCCalling) throws -> String
    ) throws -> Gone? {
        var client = global.client
        let removed = try Input.confirmedRemoval(
            of: kind, id: id, yes: yes, client: &client, remove: rpc, question: question)
        guard let gone = removed else { return nil }
        if output.json {
            try Output.json(gone)
            return nil
        }
        return gone
    }
}
