import BeautyDaemon
import BeautyLocalization
import Foundation

// Before any thread exists: a locale name ICU would crash on is replaced (setenv), and a too-small
// address space must end the start with a message.
LocaleEnvironment.sanitize()
Heap.limitArenas()
do {
    try ResourceLimits.checkAddressSpace()
} catch {
    FileHandle.standardError.write(Data("beautyd: \(error)\n".utf8))
    exit(1)
}
EventLoopConcurrency.install()
await BeautydCommand.runAsMain()
