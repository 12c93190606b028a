import BeautyDaemon
import Foundation

// Before any thread exists: a too-small address space must end the start with a message.
Heap.limitArenas()
do {
    try ResourceLimits.checkAddressSpace()
} catch {
    FileHandle.standardError.write(Data("beautyd: \(error)\n".utf8))
    exit(1)
}
EventLoopConcurrency.install()
await BeautydCommand.runAsMain()
