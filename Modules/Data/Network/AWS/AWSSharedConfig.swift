import Foundation

/// The profiles of AWS's shared files, `~/.aws/config` and `~/.aws/credentials` (or
/// `AWS_CONFIG_FILE` and `AWS_SHARED_CREDENTIALS_FILE`), as the SDKs read them: INI sections,
/// `[profile name]` in the config file and `[name]` in the credentials file, keys in lower
/// case, the credentials file winning where both set a key. Indented lines (a service's
/// nested settings) and comments are skipped.
struct AWSSharedConfig: Sendable {
    /// Profile name → key → value.
    var profiles: [String: [String: String]] = [:]
    /// `[sso-session name]` sections of the config file: name → key → value.
    var ssoSessions: [String: [String: String]] = [:]

    /// The files the environment points to, or the defaults under `HOME`; a missing file is empty.
    init(environment: [String: String]) throws(AWSCredentialError) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        let config = environment["AWS_CONFIG_FILE"] ?? home + "/.aws/config"
        let credentials = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? home + "/.aws/credentials"
        self.init(config: try Self.read(config), credentials: try Self.read(credentials))
    }

    init(config: String, credentials: String) {
        for (name, values) in Self.sections(config) {
            let profile = name == "default" ? "default" : name.hasPrefix("profile ") ? String(name.dropFirst(8)).trimmingCharacters(in: .whitespaces) : nil
            if let profile { profiles[profile, default: [:]].merge(values) { _, new in new } }
            if name.hasPrefix("sso-session ") { ssoSessions[String(name.dropFirst(12)).trimmingCharacters(in: .whitespaces)] = values }
        }
        for (name, values) in Self.sections(credentials) {
            profiles[name, default: [:]].merge(values) { _, new in new }
        }
    }

    private static func read(_ path: String) throws(AWSCredentialError) -> String {
        guard FileManager.default.fileExists(atPath: path) else { return "" }
        do {
            return try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
    }

    /// The sections of an INI text in order, each with its key-value pairs.
    static func sections(_ text: String) -> [(String, [String: String])] {
        var sections: [(String, [String: String])] = []
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            if rawLine.first == " " || rawLine.first == "\t" { continue }  // nested settings
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { continue }
                sections.append((line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces), [:]))
            } else if let equals = line.firstIndex(of: "="), !sections.isEmpty {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                for marker in [" #", " ;", "\t#", "\t;"] {  // an inline comment after a space
                    if let range = value.range(of: marker) { value = value[..<range.lowerBound].trimmingCharacters(in: .whitespaces) }
                }
                sections[sections.count - 1].1[key] = value
            }
        }
        return sections
    }
}
