extension String {
    /// The text a C shim wrote into `buffer`, up to its terminating zero (or the buffer's end).
    init(cMessage buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
