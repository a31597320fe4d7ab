import Foundation
import OspreyCodec
import Testing

/// XMP properties as /info answers them: every shape RDF gives a property, and packets a
/// hostile source could send (deep, broken, with entities and control characters).
@Suite("XMP fields")
struct XMPFieldsTests {
    static func packet(_ body: String) -> Data {
        Data("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:aux="http://ns.adobe.com/exif/1.0/aux/"
             xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" aux:Lens="16.0-35.0 mm f/4.0">
            \(body)
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    @Test func everyShapeOfProperty() {
        let fields = XMPFields.fields(of: Self.packet("""
            <dc:creator><rdf:Seq><rdf:li>Peter B. Parker</rdf:li><rdf:li>Mary Jane</rdf:li></rdf:Seq></dc:creator>
            <dc:title><rdf:Alt><rdf:li xml:lang="fi">Otsikko</rdf:li><rdf:li xml:lang="x-default">Title "quoted"\\</rdf:li></rdf:Alt></dc:title>
            <dc:format>image/jpeg</dc:format>
            <Iptc4xmpCore:CreatorContactInfo rdf:parseType="Resource"><Iptc4xmpCore:CiAdrCity>Helsinki</Iptc4xmpCore:CiAdrCity></Iptc4xmpCore:CreatorContactInfo>
            """))
        #expect(fields["aux"]?["Lens"] as? String == "16.0-35.0 mm f/4.0")
        #expect(fields["dc"]?["creator"] as? [String] == ["Peter B. Parker", "Mary Jane"])
        #expect(fields["dc"]?["title"] as? String == "Title \"quoted\"\\", "the x-default item, escaped and read back")
        #expect(fields["dc"]?["format"] as? String == "image/jpeg")
        #expect((fields["Iptc4xmpCore"]?["CreatorContactInfo"] as? [String: Any])?["CiAdrCity"] as? String == "Helsinki")
    }

    @Test func hostilePacketsAnswerWhatTheyCanOrNothing() {
        #expect(XMPFields.fields(of: Data("<x:xmpmeta><rdf:RDF".utf8)).isEmpty, "not well-formed")
        #expect(XMPFields.fields(of: Data()).isEmpty)
        // 200 nested structures: the walk stops at 16 levels, deeper ones are null.
        let deep = String(repeating: "<dc:a rdf:parseType=\"Resource\">", count: 200) + "x" + String(repeating: "</dc:a>", count: 200)
        let nested = XMPFields.fields(of: Self.packet(deep))
        var level: Any? = nested["dc"]?["a"]
        var depth = 0
        while let object = level as? [String: Any] {
            level = object["a"]
            depth += 1
        }
        #expect((1...18).contains(depth) && level is NSNull, "\(depth)")
        // An external entity is neither fetched nor expanded; control characters stay text.
        let external = Data("""
            <!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:format>&e;</dc:format><dc:source>a&#x9;b&#xA;c</dc:source></rdf:Description>
            </rdf:RDF></x:xmpmeta>
            """.utf8)
        let fields = XMPFields.fields(of: external)
        let format = fields["dc"]?["format"] as? String ?? ""
        #expect(!format.contains("root:"))
        #expect(fields["dc"]?["source"] as? String == "a\tb\nc")
    }
}
