import ArgumentParser
import BeautyCore
import BeautyProtocol
import Foundation

struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "budget", abstract: "(not implemented yet)")
}

struct CategoriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "categories", abstract: "(not implemented yet)")
}

struct CalendarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "calendar", abstract: "(not implemented yet)")
}

