import Foundation

/// One of osprey-server's settings, as every way of giving it reads it: a command-line flag,
/// an `OSPREY_` variable and the `IMGPROXY_` variables an imgproxy deployment sets. The
/// program's flags, its help, both environments and the settings table in `Docs/SERVER.md`
/// are all written from ``ServerSettings/table``.
public struct ServerSetting: Sendable {
    /// What a setting takes.
    public enum Kind: Sendable, Equatable {
        /// One value, named in help by its placeholder (`SECONDS`, `HOST:PORT`).
        case value(String)
        /// Any number of values: the flag repeated, or a variable's comma-separated list.
        case list(String)
        /// On or off: the flag alone is on; a variable is `true` or `false` (Go's spellings).
        case toggle
    }

    /// The flag, without its dashes (`max-queue`); `nil` for imgproxy's spellings of what a
    /// flag of Osprey's says another way (imgproxy's switch for automatic WebP, Osprey's
    /// `--auto-format webp`).
    public let flag: String?
    /// The `OSPREY_` variable, without the prefix (`MAX_QUEUE`); `nil` when there is no flag.
    public let ospreyName: String?
    /// The imgproxy variables, in full, the current name first and deprecated ones after
    /// (`IMGPROXY_…`); empty where imgproxy has no such setting.
    public let imgproxyNames: [String]
    public let kind: Kind
    /// What it does, for help; its default is added from ``ServerSettings/defaults``.
    public let help: String
    /// Kept out of help (old spellings that now stop the start, naming their new one).
    public let isHidden: Bool
    /// The default as help shows it, read from the defaults it is given; `nil`: none to show.
    let shownDefault: @Sendable (ServerConfiguration) -> String?
    /// Sets what `input` holds on its configuration.
    let apply: @Sendable (inout SettingInput) throws(ServerSettingError) -> Void
    /// Run when an imgproxy environment is read that does not set this setting: imgproxy's
    /// defaults, where they differ from Osprey's and are taken or named.
    let imgproxyDefault: (@Sendable (inout SettingInput) throws(ServerSettingError) -> Void)?

    init(_ flag: String?, osprey: String? = nil, imgproxy: [String] = [], _ kind: Kind, hidden: Bool = false, _ help: String,
         default shownDefault: @escaping @Sendable (ServerConfiguration) -> String? = { _ in nil },
         imgproxyDefault: (@Sendable (inout SettingInput) throws(ServerSettingError) -> Void)? = nil,
         apply: @escaping @Sendable (inout SettingInput) throws(ServerSettingError) -> Void) {
        self.flag = flag
        ospreyName = osprey ?? flag?.uppercased().replacingOccurrences(of: "-", with: "_")
        imgproxyNames = imgproxy
        self.kind = kind
        self.help = help
        isHidden = hidden
        self.shownDefault = shownDefault
        self.apply = apply
        self.imgproxyDefault = imgproxyDefault
    }

    /// What names the setting in the values read: its flag, else its first imgproxy name.
    var id: String { flag ?? imgproxyNames[0] }

    /// The help line's text: what it does, then its default from `defaults`.
    public func helpText(defaults: ServerConfiguration) -> String {
        shownDefault(defaults).map { "\(help) (default \($0))" } ?? help
    }
}
