import OspreyDomain

/// How an answer's format is decided: named (by the URL, or enforced for a client that
/// accepts it), or left to the image among the formats the client's `Accept` lets the
/// server offer; and whether the answer varies with `Accept`.
struct AnswerChoice {
    let format: ImageFormat?
    let offers: [ImageFormat]
    let varies: Bool
}
