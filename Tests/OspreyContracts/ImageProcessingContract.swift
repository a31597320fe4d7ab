import OspreyDomain
import Testing

/// The behaviour every ``ImageProcessing`` must show.
public struct ImageProcessingContract: Sendable {
    /// What the checks need: processors made twice from the same parameters, and the size
    /// each makes of ``input``.
    public struct Fixture: Sendable {
        /// Processors with distinct parameters.
        public var variants: [any ImageProcessing]
        /// The same parameters again, made anew: `remade[i]` matches `variants[i]`.
        public var remade: [any ImageProcessing]
        /// The image processed.
        public var input: Image
        /// The size `variants[i]` makes of ``input``.
        public var expectedSizes: [PixelSize]

        /// Creates a fixture.
        public init(variants: [any ImageProcessing], remade: [any ImageProcessing], input: Image, expectedSizes: [PixelSize]) {
            self.variants = variants
            self.remade = remade
            self.input = input
            self.expectedSizes = expectedSizes
        }
    }

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case identifierIsStable, identifiersDifferWithParameters, outputHasExpectedSize, outputIsDeterministic
    }

    private let fixture: Fixture

    /// Creates the contract for `fixture`.
    public init(fixture: Fixture) { self.fixture = fixture }

    /// Runs one check.
    public func run(_ check: Check) throws {
        #expect(fixture.variants.count >= 2 && fixture.variants.count == fixture.remade.count
                && fixture.variants.count == fixture.expectedSizes.count, "fixture is well formed")
        switch check {
        case .identifierIsStable:
            for (a, b) in zip(fixture.variants, fixture.remade) {
                #expect(a.identifier == b.identifier)
                #expect(!a.identifier.isEmpty)
            }
        case .identifiersDifferWithParameters:
            let identifiers = fixture.variants.map(\.identifier)
            #expect(Set(identifiers).count == identifiers.count, "\(identifiers)")
        case .outputHasExpectedSize:
            for (processor, size) in zip(fixture.variants, fixture.expectedSizes) {
                #expect(try processor.process(fixture.input).size == size, "\(processor.identifier)")
            }
        case .outputIsDeterministic:
            for (a, b) in zip(fixture.variants, fixture.remade) {
                #expect(try a.process(fixture.input) == b.process(fixture.input), "\(a.identifier)")
            }
        }
    }
}
