import OspreyDomain

/// How an answer's format is decided, and whether the answer varies with `Accept`: named
/// (by the URL, or enforced for a client that accepts it), or the first of the formats the
/// client's `Accept` lets the server offer that carries the image, else the server's
/// preferred formats, else JPEG or PNG.
struct AnswerChoice: Sendable {
    let format: OutputEncoding.FormatChoice
    let varies: Bool
}
