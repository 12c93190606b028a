import BeautyDaemon

await BeautydCommand.runAsMain()
