/// What `osprey convert --json` prints for a batch: one ``Failure`` line per input that
/// failed, as it fails, then one ``Summary`` line.
enum BatchReport {
    struct Failure: Codable {
        let input: String
        let error: String
        /// The exit status this failure would have alone (65 bad data, 66 unreadable, 73 unwritable).
        let status: Int32
    }

    struct Summary: Codable {
        /// Inputs found.
        let images: Int
        /// Inputs whose every output was written.
        let converted: Int
        /// Outputs written.
        let outputs: Int
        /// Inputs left alone because every output existed (no `--overwrite`).
        let skipped: Int
        let failed: Int
        let seconds: Double
        let imagesPerSecond: Double
    }
}
