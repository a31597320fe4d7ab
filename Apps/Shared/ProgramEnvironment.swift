import ArgumentParser
import Foundation

/// The one way Osprey's programs read their settings from the environment: every option
/// `--some-name` also reads `OSPREY_SOME_NAME`, used when the option is not given; an empty
/// variable counts as unset, a repeatable option takes comma-separated values, and a flag is
/// on for `1` or `true`.
public enum ProgramEnvironment {
    /// `OSPREY_<name>`, if set and not empty.
    public static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment["OSPREY_" + name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The option's value, else its variable's parsed as `T`; a variable that does not parse
    /// stops the program with a message naming it.
    public static func value<T: ExpressibleByArgument>(_ given: T?, _ name: String) throws -> T? {
        if let given { return given }
        guard let text = value(name) else { return nil }
        guard let parsed = T(argument: text) else { throw ValidationError("OSPREY_\(name)=\(text) is not a valid value") }
        return parsed
    }

    /// A flag given, or its variable set to `1` or `true`.
    public static func flag(_ given: Bool, _ name: String) -> Bool {
        given || ["1", "true"].contains(value(name)?.lowercased() ?? "")
    }

    /// A repeatable option's values, else its variable's comma-separated ones.
    public static func list(_ given: [String], _ name: String) -> [String] {
        given.isEmpty ? (value(name)?.split(separator: ",").map(String.init) ?? []) : given
    }
}
