@testable import BeautyDaemon
import BeautyCore
import Foundation
import Testing

/// Which other host discovery during `sync add` may lead the password to: the one the user named, over https.
@Suite struct TrustedHostTests {
    let shard = URL(string: "https://p42-caldav.icloud.com/123456/calendars/")!

    @Test func anotherHostIsFollowedOnlyWhenTheUserNamesIt() throws {
        #expect(throws: ValidationError.self) { try SyncSetup.checkFollowing(shard, trusting: nil) }
        #expect(throws: ValidationError.self) { try SyncSetup.checkFollowing(shard, trusting: "p43-caldav.icloud.com") }
        #expect(throws: ValidationError.self) { try SyncSetup.checkFollowing(shard, trusting: "icloud.com") }
        try SyncSetup.checkFollowing(shard, trusting: " P42-caldav.icloud.com ")
        try SyncSetup.checkFollowing(
            URL(string: "https://p42-caldav.icloud.com:443/x/")!, trusting: "p42-caldav.icloud.com")
        let otherPort = URL(string: "https://p42-caldav.icloud.com:8443/x/")!
        #expect(throws: ValidationError.self) {
            try SyncSetup.checkFollowing(otherPort, trusting: "p42-caldav.icloud.com")
        }
        try SyncSetup.checkFollowing(otherPort, trusting: "p42-caldav.icloud.com:8443")
    }

    @Test func theErrorNamesTheHostAsTheOptionTakesIt() {
        #expect(SyncSetup.hostName(of: shard) == "p42-caldav.icloud.com")
        #expect(SyncSetup.hostName(of: URL(string: "http://127.0.0.1:5232/alice/")!) == "127.0.0.1:5232")
        do {
            try SyncSetup.checkFollowing(shard, trusting: nil)
            Issue.record("followed without the user's word")
        } catch {
            #expect(
                "\(error)".contains("https://p42-caldav.icloud.com")
                    && "\(error)".contains("--trust-host p42-caldav.icloud.com"), "\(error)")
        }
    }

    @Test func plainHTTPToAnotherMachineIsNeverFollowedEvenWhenNamed() {
        #expect(throws: ValidationError.self) {
            try SyncSetup.checkFollowing(
                URL(string: "http://p42-caldav.icloud.com/x/")!, trusting: "p42-caldav.icloud.com")
        }
        #expect(throws: Never.self) {
            try SyncSetup.checkFollowing(URL(string: "http://127.0.0.1:5232/x/")!, trusting: "127.0.0.1:5232")
        }
    }
}
