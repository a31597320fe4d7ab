import ArgumentParser
import OspreyServer

/// `osprey-server settings-table`: the settings table as Markdown, for `Docs/SERVER.md`.
struct SettingsTableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "settings-table", abstract: "Print the settings table as Markdown.",
                                                    shouldDisplay: false)

    func run() {
        print(ServerSettings.markdown())
    }
}
