/// An image a command wrote, as its `--json` reports it.
struct WrittenImage: Codable {
    let output: String
    let format: String
    let width: Int
    let height: Int
    let bytes: Int
    /// Frames written: 1 for a still.
    var frames: Int = 1
}
