import ArgumentParser
import BeautyCore
import BeautyProtocol
import Foundation

struct BMICommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "bmi", abstract: "(not implemented yet)")
}

struct MeasureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "measure", abstract: "(not implemented yet)")
}

