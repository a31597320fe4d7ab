/// The version the `osprey` tool reports.
enum OspreyVersion {
    static let current = "0.1.0"
}
