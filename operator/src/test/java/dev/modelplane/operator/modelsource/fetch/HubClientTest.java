package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.testsupport.FakeHub;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HubClientTest {
  private static final String TOKEN = "hf_secretTokenValue123";
  private static final byte[] CONFIG = "{\"model_type\":\"llama\"}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] WEIGHTS = bytes(300_000, 7);

  private FakeHub hub;

  @BeforeEach
  void start() throws IOException {
    hub = new FakeHub().file("config.json", CONFIG, false).file("model.safetensors", WEIGHTS, true)
        .file("sub/tokenizer.json", bytes(1000, 3), false);
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  @Test
  void listsEveryFileOfTheCommitWithSizesAndLfsDigests() throws IOException {
    hub.pageSize = 2; // three files: two pages, joined by the Link header
    HubClient client = client(null);
    List<RemoteFile> files = client.list();
    assertThat(files).extracting(RemoteFile::path)
        .containsExactly("config.json", "model.safetensors", "sub/tokenizer.json");
    assertThat(files.get(0).size()).isEqualTo(CONFIG.length);
    assertThat(files.get(0).sha256()).as("a plain git file has no SHA-256 in the tree").isEmpty();
    assertThat(files.get(1).sha256()).contains(FakeHub.sha256(WEIGHTS));
    assertThat(files.get(1).size()).isEqualTo(WEIGHTS.length);
    assertThat(client.revision()).contains(FakeHub.COMMIT);
    assertThat(hub.requests).filteredOn(r -> r.path().contains("/tree/")).hasSize(2)
        .allSatisfy(r -> assertThat(r.path()).endsWith("/tree/" + FakeHub.COMMIT));
    assertThat(hub.requests).filteredOn(r -> r.path().contains("/revision/")).as("the commit is asked once")
        .hasSize(1);
  }

  @Test
  void opensAtAnOffsetWithARangeThroughTheRedirect() throws IOException {
    HubClient client = client(TOKEN);
    hub.token = TOKEN;
    RemoteFile weights = client.list().get(1);
    try (RemoteStream in = client.open(weights, 1000)) {
      assertThat(in.startOffset()).isEqualTo(1000);
      assertThat(in.readAllBytes()).isEqualTo(java.util.Arrays.copyOfRange(WEIGHTS, 1000, WEIGHTS.length));
    }
    List<FakeHub.Seen> seen = hub.fileRequests("model.safetensors");
    assertThat(seen).extracting(FakeHub.Seen::server).containsExactly("hub", "cdn");
    assertThat(seen.get(0).path()).isEqualTo("/" + FakeHub.REPO + "/resolve/" + FakeHub.COMMIT
        + "/model.safetensors");
    assertThat(seen).extracting(FakeHub.Seen::range).containsOnly("bytes=1000-");
    assertThat(seen.get(0).authorization()).isEqualTo("Bearer " + TOKEN);
    assertThat(seen.get(1).authorization()).as("the token never goes to the CDN's origin").isNull();
  }

  @Test
  void encodesPathsAndRevisions() throws IOException {
    hub.file("dir with space/a+b.json", CONFIG, false);
    HubClient client = client(null);
    RemoteFile file = client.list().stream().filter(f -> f.path().startsWith("dir")).findFirst().orElseThrow();
    try (InputStream in = client.open(file, 0)) {
      assertThat(in.readAllBytes()).isEqualTo(CONFIG);
    }
    assertThat(HubClient.encodeSegment("refs/pr/1")).isEqualTo("refs%2Fpr%2F1");
    assertThat(HubClient.encodePath("dir with space/a+b.json")).isEqualTo("dir%20with%20space/a%2Bb.json");
  }

  @Test
  void gatedRepositoryWithoutTokenSaysTokenMissing() {
    hub.token = TOKEN;
    assertThatThrownBy(() -> client(null).list()).isInstanceOf(FetchException.class)
        .hasMessage("Hugging Face repository 'org/model' is gated: token missing or not allowed (no token was "
            + "given; accept the model's conditions on its page with the token's account) (HTTP 401)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
  }

  @Test
  void gatedRepositoryWithAWrongTokenNeverShowsTheToken() {
    hub.token = TOKEN;
    String wrong = "hf_wrongTokenValue999";
    assertThatThrownBy(() -> client(wrong).list()).isInstanceOf(FetchException.class)
        .hasMessageContaining("token missing or not allowed (the token is not allowed to read it")
        .hasMessageContaining("HTTP 403").hasMessageNotContaining(wrong);
  }

  @Test
  void privateRepositoryAnswers401RepoNotFound() {
    hub.token = TOKEN;
    hub.privateRepo = true;
    assertThatThrownBy(() -> client(null).list()).hasMessage("Hugging Face repository 'org/model' was not found or "
        + "is private at " + hub.endpoint() + ": token missing or not allowed (no token was given) (HTTP 401)");
  }

  @Test
  void missingRepositoryRevisionAndFileAreNamed() throws IOException {
    HubSettings other = settings(null).withEndpoint(hub.endpoint());
    assertThatThrownBy(() -> new HubClient(new HubSettings(other.endpoint(), "org/nothing", "main", Optional.empty(),
        other.timeout())).list()).isInstanceOf(FetchException.class)
        .hasMessage("Hugging Face repository 'org/nothing' not found at " + hub.endpoint() + " (HTTP 404)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
    assertThatThrownBy(() -> new HubClient(new HubSettings(other.endpoint(), FakeHub.REPO, "v9", Optional.empty(),
        other.timeout())).list())
        .hasMessage("revision 'v9' not found in Hugging Face repository 'org/model' at " + hub.endpoint()
            + " (HTTP 404)");
    HubClient client = client(null);
    assertThatThrownBy(() -> client.open(RemoteFile.of("gone.bin", 3), 0))
        .hasMessage("file 'gone.bin' not found in Hugging Face repository 'org/model' at revision 'main' at "
            + hub.endpoint() + " (HTTP 404)");
  }

  @Test
  void serverErrorsAreRetryable() {
    hub.failNext(1, 502);
    assertThatThrownBy(() -> client(null).list()).isInstanceOf(FetchException.class)
        .hasMessage("Hugging Face endpoint " + hub.endpoint() + " failed with HTTP 502 while resolving the revision "
            + "of Hugging Face repository 'org/model' (revision 'main')")
        .satisfies(e -> assertThat(((FetchException) e).retryable()).isTrue());
  }

  @Test
  void connectionRefusedNamesTheEndpoint() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    URI closed = URI.create("http://127.0.0.1:" + port);
    assertThatThrownBy(() -> new HubClient(settings(TOKEN).withEndpoint(closed)).list())
        .isInstanceOf(FetchException.class)
        .hasMessage("cannot connect to http://127.0.0.1:" + port + ": connection refused")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.CONNECTION));
  }

  @Test
  void redirectsAreCappedAndOnlyToHttp() {
    hub.redirectTo = "/api/models/org/model/revision/main"; // a loop
    assertThatThrownBy(() -> client(null).list()).isInstanceOf(FetchException.class)
        .hasMessage("more than 5 redirects starting at " + hub.endpoint());
    hub.redirectTo = "file:///etc/passwd";
    assertThatThrownBy(() -> client(null).list())
        .hasMessage(hub.endpoint() + " redirected to a non-HTTP location (scheme 'file'); refused");
  }

  @Test
  void aNextPageOnAnotherOriginIsReadWithoutTheToken() throws IOException {
    hub.pageSize = 2;
    hub.nextPageOrigin = hub.cdnEndpoint();
    List<RemoteFile> files = client(TOKEN).list();
    assertThat(files).extracting(RemoteFile::path)
        .containsExactly("config.json", "model.safetensors", "sub/tokenizer.json");
    List<FakeHub.Seen> trees = hub.requests.stream().filter(r -> r.path().contains("/tree/")).toList();
    assertThat(trees).extracting(FakeHub.Seen::server).containsExactly("hub", "cdn");
    assertThat(trees.get(0).authorization()).isEqualTo("Bearer " + TOKEN);
    assertThat(trees.get(1).authorization()).as("the token was issued for the hub's origin only").isNull();
  }

  @Test
  void httpsNeverLeadsToPlainHttpByRedirectOrNextPage() throws Exception {
    try (TlsServer tls = new TlsServer()) {
      HubSettings settings = new HubSettings(tls.endpoint(), FakeHub.REPO, FakeHub.REVISION, Optional.of(TOKEN),
          Duration.ofSeconds(5));
      String plain = hub.endpoint() + "/api/models/" + FakeHub.REPO;
      tls.answer = path -> path.contains("/revision/")
          ? new TlsServer.Answer(302, Map.of("Location", plain + "/revision/" + FakeHub.REVISION), "")
          : new TlsServer.Answer(200, Map.of(), "[]");
      assertThatThrownBy(() -> new HubClient(settings, tls.sender()).commit()).isInstanceOf(FetchException.class)
          .hasMessage(tls.endpoint() + " redirected from https to plain http (" + hub.endpoint() + "); refused");

      tls.answer = path -> path.contains("/revision/")
          ? new TlsServer.Answer(200, Map.of(), "{\"sha\":\"" + FakeHub.COMMIT + "\"}")
          : new TlsServer.Answer(200, Map.of("Link", "<" + plain + "/tree/" + FakeHub.COMMIT
              + "?recursive=true&cursor=2>; rel=\"next\""), "[]");
      assertThatThrownBy(() -> new HubClient(settings, tls.sender()).list()).isInstanceOf(FetchException.class)
          .hasMessage(tls.endpoint() + " linked the next page of the file list of hf://org/model@main to plain "
              + "http (" + hub.endpoint() + "); refused");
      assertThat(hub.requests).as("nothing reached the plain http server").isEmpty();
    }
  }

  @Test
  void nextPageLinksAreFollowedOnlyToHttp() {
    assertThat(HubClient.nextPage("<https://hub.example/api?cursor=2>; rel=\"next\"")).contains(
        URI.create("https://hub.example/api?cursor=2"));
    assertThat(HubClient.nextPage("<ftp://hub.example/x>; rel=\"next\"")).isEmpty();
    assertThat(HubClient.nextPage("<https://hub.example/x>; rel=\"prev\"")).isEmpty();
  }

  @Test
  void settingsFollowHfEndpointAndRejectBadInput() {
    HubSettings fromEnv = HubSettings.fromEnvironment("org/model", null, null,
        Map.of("HF_ENDPOINT", "http://127.0.0.1:9/", "HF_TOKEN", TOKEN));
    assertThat(fromEnv.endpoint()).isEqualTo(URI.create("http://127.0.0.1:9"));
    assertThat(fromEnv.revision()).isEqualTo("main");
    assertThat(fromEnv.token()).contains(TOKEN);
    assertThat(fromEnv.toString()).doesNotContain(TOKEN).contains("token=<set>");
    assertThat(HubSettings.fromEnvironment("org/model", "v1", "explicit", Map.of()).endpoint())
        .isEqualTo(HubSettings.DEFAULT_ENDPOINT);
    assertThatThrownBy(() -> HubSettings.of("org/model/extra", "main"))
        .hasMessage("Hugging Face repository id must be 'org/name' (letters, digits, '.', '_', '-'), got "
            + "'org/model/extra'");
    assertThatThrownBy(() -> HubSettings.of("../etc", "main"))
        .hasMessage("Hugging Face repository id must be 'org/name' (letters, digits, '.', '_', '-'), got '../etc'");
    assertThatThrownBy(() -> HubSettings.of("org/model", "a b"))
        .hasMessage("Hugging Face revision must be a branch, tag or commit without spaces or '..', got 'a b'");
    assertThatThrownBy(() -> HubSettings.of("org/model", "main").withEndpoint(URI.create("ftp://h")))
        .hasMessage("Hugging Face endpoint must be an http(s) URL with a host, got 'ftp://h'");
    assertThatThrownBy(() -> HubSettings.of("org/model", "main").withEndpoint(URI.create("http://u:p@h/")))
        .hasMessage("Hugging Face endpoint must not have a query or user info, got http://h");
    assertThatThrownBy(() -> HubSettings.of("org/model", "main").withTimeout(Duration.ZERO))
        .hasMessage("timeout must be positive, got PT0S");
  }

  private HubClient client(String token) {
    return new HubClient(settings(token));
  }

  private HubSettings settings(String token) {
    return new HubSettings(hub.endpoint(), FakeHub.REPO, FakeHub.REVISION, Optional.ofNullable(token),
        Duration.ofSeconds(5));
  }

  static byte[] bytes(int size, int seed) {
    byte[] out = new byte[size];
    new java.util.Random(seed).nextBytes(out);
    return out;
  }
}
