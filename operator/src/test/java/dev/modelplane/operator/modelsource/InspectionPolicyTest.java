package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which addresses, schemes, hosts and redirects model inspection allows; no network involved. */
class InspectionPolicyTest {
  private static InetAddress ip(String literal) throws UnknownHostException {
    return InetAddress.getByName(literal);
  }

  @Test
  void everyNonPublicRangeIsNamed() throws UnknownHostException {
    assertThat(InspectionPolicy.notPublic(ip("127.0.0.1"))).isEqualTo("a loopback address");
    assertThat(InspectionPolicy.notPublic(ip("10.1.2.3"))).isEqualTo("a private address");
    assertThat(InspectionPolicy.notPublic(ip("172.16.0.1"))).isEqualTo("a private address");
    assertThat(InspectionPolicy.notPublic(ip("172.31.255.255"))).isEqualTo("a private address");
    assertThat(InspectionPolicy.notPublic(ip("192.168.1.1"))).isEqualTo("a private address");
    assertThat(InspectionPolicy.notPublic(ip("169.254.169.254"))).contains("link-local", "metadata");
    assertThat(InspectionPolicy.notPublic(ip("100.64.0.1"))).isEqualTo("a carrier-grade NAT address");
    assertThat(InspectionPolicy.notPublic(ip("0.0.0.0"))).isEqualTo("an unspecified address");
    assertThat(InspectionPolicy.notPublic(ip("224.0.0.251"))).isEqualTo("a multicast address");
    assertThat(InspectionPolicy.notPublic(ip("255.255.255.255"))).isEqualTo("a reserved address");
    assertThat(InspectionPolicy.notPublic(ip("::1"))).isEqualTo("a loopback address");
    assertThat(InspectionPolicy.notPublic(ip("::"))).isEqualTo("an unspecified address");
    assertThat(InspectionPolicy.notPublic(ip("fd12:3456::1"))).contains("unique local");
    assertThat(InspectionPolicy.notPublic(ip("fe80::1"))).isEqualTo("a link-local address");
    assertThat(InspectionPolicy.notPublic(ip("ff02::1"))).isEqualTo("a multicast address");
    assertThat(InspectionPolicy.notPublic(ip("192.0.0.170"))).isEqualTo("a special-purpose address");
    assertThat(InspectionPolicy.notPublic(ip("198.19.1.1"))).isEqualTo("a benchmarking address");
    assertThat(InspectionPolicy.notPublic(ip("64:ff9b:1::a00:1"))).isEqualTo("a local-use NAT64 address");
    assertThat(InspectionPolicy.notPublic(ip("2001:0:4136:e378::1"))).isEqualTo("a Teredo tunnel address");
  }

  @Test
  void ipv4HiddenInIpv6IsCheckedAsIpv4() throws UnknownHostException {
    assertThat(InspectionPolicy.notPublic(ip("::ffff:169.254.169.254"))).contains("link-local");
    assertThat(InspectionPolicy.notPublic(ip("64:ff9b::a00:1"))).startsWith("a private address (embedded in");
    assertThat(InspectionPolicy.notPublic(ip("2002:7f00:1::"))).startsWith("a loopback address (embedded in");
    assertThat(InspectionPolicy.notPublic(ip("::a9fe:a9fe"))).contains("link-local");
  }

  @Test
  void publicAddressesPass() throws UnknownHostException {
    for (String a : List.of("8.8.8.8", "172.32.0.1", "100.128.0.1", "169.255.0.1", "2606:4700::1111",
        "64:ff9b::808:808", "2002:808:808::")) {
      assertThat(InspectionPolicy.notPublic(ip(a))).as(a).isNull();
    }
  }

  @Test
  void everyResolvedAddressIsChecked() throws Exception {
    InspectionPolicy policy = InspectionPolicy.defaults();
    InetAddress[] mixed = {ip("93.184.216.34"), ip("10.0.0.7")};
    assertThatThrownBy(() -> policy.checkAddresses("files.example", mixed))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessage("refused to inspect a file on files.example: it resolves to 10.0.0.7, a private address "
            + "(allowed by --model-inspection-allowed-cidrs)");
    assertThat(policy.checkAddresses("files.example", new InetAddress[] {ip("93.184.216.34")}))
        .isEqualTo(ip("93.184.216.34"));
    InspectionPolicy inCluster = policy.withAllowedCidrs(List.of("10.0.0.0/8"));
    assertThat(inCluster.checkAddresses("minio.store", mixed)).isEqualTo(ip("93.184.216.34"));
    assertThatThrownBy(() -> inCluster.checkAddresses("meta", new InetAddress[] {ip("169.254.169.254")}))
        .hasMessageContaining("169.254.169.254, a link-local address");
  }

  @Test
  void schemesAndHostLists() throws Exception {
    InspectionPolicy policy = InspectionPolicy.defaults();
    policy.checkUrl(URI.create("https://huggingface.co/org/m.gguf"));
    assertThatThrownBy(() -> policy.checkUrl(URI.create("http://files.example/m.gguf")))
        .hasMessage("refused to inspect a file on files.example: plain http is not allowed, only https "
            + "(allowed by --model-inspection-allow-http)");
    policy.withAllowHttp(true).checkUrl(URI.create("http://files.example/m.gguf"));
    assertThatThrownBy(() -> policy.withAllowHttp(true).checkUrl(URI.create("ftp://files.example/m.gguf")))
        .hasMessageContaining("scheme 'ftp' is not http(s)");

    InspectionPolicy listed = policy.withAllowedHosts(List.of("Models.Example", "*.cdn.example"));
    listed.checkUrl(URI.create("https://models.example/m.gguf"));
    listed.checkUrl(URI.create("https://eu.cdn.example/m.gguf"));
    assertThatThrownBy(() -> listed.checkUrl(URI.create("https://cdn.example/m.gguf")))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessageContaining("cdn.example: the host is not on the allowed hosts")
        .hasMessageContaining("--model-inspection-allowed-hosts");
  }

  @Test
  void redirectsStayOnTheHostOrGoToAllowedOnes() throws Exception {
    InspectionPolicy policy = InspectionPolicy.defaults();
    URI origin = URI.create("https://huggingface.co/org/repo/resolve/main/m.gguf");
    policy.checkRedirect(origin, URI.create("https://huggingface.co/api/other"));
    policy.checkRedirect(origin, URI.create("https://cas-bridge.xethub.hf.co/xet/abc?X-Amz-Signature=1"));
    assertThatThrownBy(() -> policy.checkRedirect(origin, URI.create("https://evil.example/m.gguf")))
        .hasMessage("refused to inspect a file on evil.example: redirected there from huggingface.co, another host "
            + "(allowed by --model-inspection-redirect-hosts)");
    assertThatThrownBy(() -> policy.checkRedirect(origin, URI.create("http://huggingface.co/m.gguf")))
        .hasMessageContaining("plain http");
    assertThatThrownBy(() -> policy.withRedirectHosts(List.of()).checkRedirect(origin,
        URI.create("https://cdn-lfs.hf.co/m.gguf"))).isInstanceOf(InspectionRefusedException.class);
  }

  @Test
  void aRedirectFromHttpsToPlainHttpIsRefusedEvenWherePlainHttpIsAllowed() throws Exception {
    InspectionPolicy http = InspectionPolicy.defaults().withAllowHttp(true);
    URI origin = URI.create("https://huggingface.co/org/repo/resolve/main/m.gguf");
    assertThatThrownBy(() -> http.checkRedirect(origin, URI.create("http://huggingface.co/m.gguf")))
        .isInstanceOf(InspectionRefusedException.class)
        .hasMessage("refused to inspect a file on huggingface.co: redirected there from https on huggingface.co to "
            + "plain http");
    URI plain = URI.create("http://models.example/m.gguf");
    http.checkRedirect(plain, plain, URI.create("http://models.example/other.gguf"));
    assertThatThrownBy(() -> http.checkRedirect(plain, URI.create("https://models.example/a.gguf"),
        URI.create("http://models.example/b.gguf"))).as("a chain that reached https does not go back")
        .hasMessageContaining("redirected there from https on models.example to plain http");
  }

  @Test
  void malformedSettingsAreRefusedNamingTheFlag() {
    assertThatThrownBy(() -> InspectionPolicy.defaults().withAllowedCidrs(List.of("10.0.0.0/33")))
        .hasMessage("--model-inspection-allowed-cidrs: '10.0.0.0/33': the prefix length must be 0 to 32");
    assertThatThrownBy(() -> InspectionPolicy.defaults().withAllowedCidrs(List.of("intranet.example")))
        .hasMessageContaining("'intranet.example' is not a CIDR range");
    assertThatThrownBy(() -> InspectionPolicy.defaults().withAllowedCidrs(List.of("300.0.0.1/8")))
        .hasMessageContaining("'300.0.0.1/8' is not a CIDR range");
    assertThatThrownBy(() -> InspectionPolicy.defaults().withAllowedHosts(List.of("a/b")))
        .hasMessage("--model-inspection-allowed-hosts: 'a/b' is not a host name or *.domain");
    assertThatThrownBy(() -> InspectionPolicy.defaults().withRedirectHosts(List.of("*")))
        .hasMessageContaining("--model-inspection-redirect-hosts");
  }

  @Test
  void cidrRangesMatchTheirAddressesOnly() throws UnknownHostException {
    Cidr cgnat = Cidr.parse("100.64.0.0/10");
    assertThat(cgnat.contains(ip("100.127.255.255"))).isTrue();
    assertThat(cgnat.contains(ip("100.128.0.0"))).isFalse();
    assertThat(Cidr.parse("10.1.2.3/8")).hasToString("10.0.0.0/8");
    assertThat(Cidr.parse("fc00::/7").contains(ip("fdff::1"))).isTrue();
    assertThat(Cidr.parse("fc00::/7").contains(ip("10.0.0.1"))).isFalse();
    assertThat(Cidr.parse("0.0.0.0/0").contains(ip("8.8.8.8"))).isTrue();
    assertThat(Cidr.parse("127.0.0.1").contains(ip("127.0.0.2"))).isFalse();
  }
}
