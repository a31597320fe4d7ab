import Foundation

extension ServerSettings {
    /// Every flag with its variables, what it does and its default, for `--help`.
    public static func help(defaults: ServerConfiguration = defaults) -> String {
        table.filter { !$0.isHidden && $0.flag != nil }.map { setting in
            let variables = (["OSPREY_" + (setting.ospreyName ?? "")] + setting.imgproxyNames).joined(separator: ", ")
            return "--\(setting.flag ?? "")\(placeholder(setting.kind))\n    \(setting.helpText(defaults: defaults))\n    (\(variables))"
        }.joined(separator: "\n")
    }

    /// The table as Markdown, as `Docs/SERVER.md` has it.
    public static func markdown(defaults: ServerConfiguration = defaults) -> String {
        let rows = table.filter { !$0.isHidden }.map { setting in
            let flag = setting.flag.map { "`--\($0)\(placeholder(setting.kind))`" } ?? ""
            let osprey = setting.ospreyName.map { "`OSPREY_\($0)`" } ?? ""
            let imgproxy = setting.imgproxyNames.map { "`\($0)`" }.joined(separator: ", ")
            let help = setting.helpText(defaults: defaults).replacingOccurrences(of: "|", with: "\\|")
            return "| \(flag) | \(osprey) | \(imgproxy) | \(help) |"
        }
        return (["| flag | Osprey's variable | imgproxy's variables | what it does |", "|---|---|---|---|"] + rows).joined(separator: "\n")
    }

    private static func placeholder(_ kind: ServerSetting.Kind) -> String {
        switch kind {
        case .value(let name): " \(name)"
        case .list(let name): " \(name)…"
        case .toggle: ""
        }
    }
}
