import BeautyCLI

BeautyctlCommand.runAsMain()
