import OspreyDomain
import Testing

@Suite("Addresses and the address policy")
struct AddressPolicyTests {
    @Test("Every spelling of an address reads as the resolver reads it", arguments: [
        ("127.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("0x7f000001", "127.0.0.1"), ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("[::1]", "::1"), ("::ffff:7f00:1", "::ffff:127.0.0.1"),
        ("fe80::1%eth0", "fe80::1"),
    ])
    func spellings(_ text: String, _ canonical: String) throws {
        #expect(try #require(IPAddress(text)).description == canonical)
    }

    @Test func hostNamesAndNonsenseAreNotAddresses() {
        for text in ["localhost", "images.example.com", "", "127.0.0.1.nip.io", "[::1", "1.2.3.4 ", "::g"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
    }

    @Test("Each range falls in its category", arguments: [
        ("8.8.8.8", IPAddress.Category.public), ("1.1.1.1", .public), ("100.63.255.255", .public), ("100.128.0.1", .public),
        ("172.15.0.1", .public), ("172.32.0.1", .public), ("2606:4700::1111", .public), ("223.255.255.255", .public),
        ("127.0.0.1", .loopback), ("127.255.0.9", .loopback), ("0.0.0.0", .loopback), ("0.1.2.3", .loopback),
        ("::1", .loopback), ("::", .loopback),
        ("10.0.0.1", .private), ("172.16.0.1", .private), ("172.31.255.254", .private), ("192.168.1.1", .private),
        ("100.64.0.1", .private), ("100.127.255.254", .private), ("fc00::1", .private), ("fd12:3456::1", .private),
        ("fec0::1", .private), ("64:ff9b:1::a00:1", .private),
        ("169.254.169.254", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("224.0.0.1", .reserved), ("239.255.255.250", .reserved), ("255.255.255.255", .reserved), ("240.0.0.1", .reserved),
        ("ff02::1", .reserved),
        // IPv6 forms that carry an IPv4 address are that address's kind.
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .private), ("::ffff:169.254.169.254", .linkLocal),
        ("::ffff:8.8.8.8", .public), ("::127.0.0.1", .loopback), ("::10.0.0.1", .private), ("::169.254.1.1", .linkLocal),
        ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::8.8.8.8", .public), ("::ffff:0.0.0.0", .loopback),
    ])
    func categories(_ text: String, _ category: IPAddress.Category) throws {
        #expect(try #require(IPAddress(text)).category == category)
    }

    @Test func thePolicyOpensEachCategoryAndTrustsNamedHosts() throws {
        let closed = AddressPolicy()
        let loopback = try #require(IPAddress("127.0.0.1")), privateAddress = try #require(IPAddress("10.0.0.1"))
        let linkLocal = try #require(IPAddress("169.254.169.254")), multicast = try #require(IPAddress("224.0.0.1"))
        #expect(closed.refusal(connectingTo: loopback, host: "images.example.com") == .loopbackAddress)
        #expect(closed.refusal(connectingTo: privateAddress, host: nil) == .privateAddress)
        #expect(closed.refusal(connectingTo: linkLocal, host: nil) == .linkLocalAddress)
        #expect(closed.refusal(connectingTo: multicast, host: nil) == .reservedAddress)
        #expect(closed.refusal(connectingTo: try #require(IPAddress("93.184.216.34")), host: nil) == nil)
        let open = AddressPolicy(allowing: [.loopback, .private, .linkLocal])
        #expect([loopback, privateAddress, linkLocal].allSatisfy { open.refusal(connectingTo: $0, host: nil) == nil })
        #expect(open.refusal(connectingTo: multicast, host: nil) == .reservedAddress)
        let trusting = AddressPolicy(trustedHosts: ["Images.Internal", "[::1]"])
        #expect(trusting.refusal(connectingTo: privateAddress, host: "images.internal.") == nil, "case and a final dot")
        #expect(trusting.refusal(connectingTo: privateAddress, host: "other.internal") == .privateAddress)
        #expect(trusting.refusal(forHost: "[::1]") == nil)
    }

    @Test func theTextCheckRefusesNumericSpellingsAndLocalNames() {
        let closed = AddressPolicy()
        for host in ["127.1", "0x7f000001", "2130706433", "[::ffff:127.0.0.1]", "[::1]", "localhost", "LOCALHOST.", "a.localhost"] {
            #expect(closed.refusal(forHost: host) == .loopbackAddress, "\(host)")
        }
        #expect(closed.refusal(forHost: "169.254.169.254") == .linkLocalAddress)
        #expect(closed.refusal(forHost: "images.example.com") == nil, "a name is for the check on connecting")
        #expect(AddressPolicy(allowing: [.loopback]).refusal(forHost: "localhost") == nil)
    }
}
