import BeautyDaemon

EventLoopConcurrency.install()
await BeautydCommand.runAsMain()
