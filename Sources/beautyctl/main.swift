import BeautyCLI
import BeautyLocalization

// Before anything formats a date: a locale name ICU would crash on is replaced.
LocaleEnvironment.sanitize()
BeautyctlCommand.runAsMain()
