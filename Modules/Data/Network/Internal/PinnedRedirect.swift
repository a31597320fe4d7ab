/// A redirect a transfer pinned to a checked address did not follow: the loader resolves and
/// checks its target, then fetches it.
struct PinnedRedirect: Error {
    let target: String
}
