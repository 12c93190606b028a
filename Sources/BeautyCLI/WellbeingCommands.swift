import ArgumentParser
import BeautyCore
import BeautyProtocol
import Foundation

struct TipsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tips", abstract: "(not implemented yet)")
}

struct TipCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tip", abstract: "(not implemented yet)")
}

struct WaterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "water", abstract: "(not implemented yet)")
}

