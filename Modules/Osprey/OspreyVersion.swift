/// Osprey's version, as the tools report it and `%current_version` in a User-Agent names it.
public enum OspreyVersion {
    public static let current = "0.1.0"
}
