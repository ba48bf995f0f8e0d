package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link GcsClient}'s requests and its reading of answers, against a loopback stub of the JSON API. */
class GcsClientTest {
  private static final String PAGE_1 = "{\"items\":[{\"name\":\"m/config.json\",\"size\":\"11\",\"crc32c\":\"yZRlqg==\","
      + "\"md5Hash\":\"XrY7u+Ae7tCTyyK7j1rNww==\",\"generation\":\"1700000000000001\"},"
      + "{\"name\":\"m/sub/\",\"size\":\"0\",\"crc32c\":\"AAAAAA==\"}],\"nextPageToken\":\"p2\"}";
  private static final String PAGE_2 = "{\"items\":[{\"name\":\"m/sub/w.bin\",\"size\":\"11\","
      + "\"md5Hash\":\"XrY7u+Ae7tCTyyK7j1rNww==\"},{\"name\":\"mx/other\",\"size\":\"1\"}]}";

  private HttpServer server;
  private final List<HttpExchange> requests = new CopyOnWriteArrayList<>();
  private final List<String> authorizations = new CopyOnWriteArrayList<>();
  private volatile int status = 200;
  private volatile String errorBody = "";

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void listsAcrossPagesPreferringCrc32cAndPinningGenerations() throws IOException {
    List<RemoteFile> files = client(GcsAuth.anonymous()).list();
    assertThat(files).extracting(RemoteFile::path).containsExactly("config.json", "sub/w.bin");
    assertThat(files.get(0).expected()).contains(new ContentChecksum(ContentChecksum.Algorithm.CRC32C, "c99465aa"));
    assertThat(files.get(0).etag()).contains("1700000000000001");
    assertThat(files.get(1).expected()).contains(new ContentChecksum(ContentChecksum.Algorithm.MD5,
        "5eb63bbbe01eeed093cb22bb8f5acdc3"));
    assertThat(requests).extracting(r -> r.getRequestURI().getRawQuery()).containsExactly(
        "prefix=m%2F&maxResults=1000&fields=items%28name%2Csize%2Cmd5Hash%2Ccrc32c%2Cgeneration%2Cetag%29%2C"
            + "nextPageToken",
        "prefix=m%2F&maxResults=1000&fields=items%28name%2Csize%2Cmd5Hash%2Ccrc32c%2Cgeneration%2Cetag%29%2C"
            + "nextPageToken&pageToken=p2");
    assertThat(requests.getFirst().getRequestURI().getRawPath()).isEqualTo("/storage/v1/b/models/o");
    assertThat(authorizations).containsOnly("none");
  }

  @Test
  void opensTheListedGenerationFromAnOffsetAsStored() throws IOException {
    RemoteFile file = client(GcsAuth.anonymous()).list().getFirst();
    requests.clear();
    try (RemoteStream in = client(new GcsAuth.AccessToken("ya29.ready-token")).open(file, 6)) {
      assertThat(in.startOffset()).isEqualTo(6);
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("world");
    }
    HttpExchange get = requests.getFirst();
    assertThat(get.getRequestURI().getRawPath()).isEqualTo("/storage/v1/b/models/o/m%2Fconfig.json");
    assertThat(get.getRequestURI().getRawQuery()).isEqualTo("alt=media&generation=1700000000000001");
    assertThat(get.getRequestHeaders().getFirst("Range")).isEqualTo("bytes=6-");
    assertThat(get.getRequestHeaders().getFirst("Accept-Encoding")).isEqualTo("gzip");
    assertThat(authorizations).last().isEqualTo("Bearer ya29.ready-token");
  }

  @Test
  void sendsTheServiceAccountsTokenAndAsksForANewOneWhenItIsRejected() throws Exception {
    try (GoogleTokenServer google = new GoogleTokenServer()) {
      GcsAuth auth = new ServiceAccountTokens(ServiceAccountKey.parse(google.keyFile()), Duration.ofSeconds(5));
      GcsClient gcs = client(auth);
      gcs.list();
      assertThat(authorizations).containsExactly("Bearer token-1", "Bearer token-1");
      status = 401;
      errorBody = "{\"error\":{\"code\":401,\"message\":\"Invalid Credentials\",\"errors\":[{\"reason\":\"authError\"}]}}";
      assertThatThrownBy(gcs::list).isInstanceOf(FetchException.class)
          .hasMessage("GCS bucket 'models' at " + origin() + " rejected the credentials of service account '"
              + GoogleTokenServer.EMAIL + "' (authError, HTTP 401: Invalid Credentials)")
          .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED));
      status = 200;
      gcs.list();
      assertThat(authorizations).last().isEqualTo("Bearer token-2");
      assertThat(google.problems).isEmpty();
    }
  }

  @Test
  void errorsNameTheBucketObjectAndCaller() {
    status = 403;
    errorBody = "{\"error\":{\"code\":403,\"message\":\"Anonymous caller does not have storage.objects.list access.\","
        + "\"errors\":[{\"reason\":\"forbidden\"}]}}";
    assertThatThrownBy(() -> client(GcsAuth.anonymous()).list()).hasMessage("GCS bucket 'models' at " + origin()
        + " denied anonymous requests access to prefix 'm/' (check the credentials and the bucket's IAM policy) "
        + "(forbidden, HTTP 403: Anonymous caller does not have storage.objects.list access.)");
    status = 404;
    errorBody = "{\"error\":{\"code\":404,\"message\":\"No such object: models/m/x\"}}";
    assertThatThrownBy(() -> client(GcsAuth.anonymous()).open(new RemoteFile("x", 1, Optional.empty(),
        Optional.of("42")), 0)).hasMessage("object 'm/x' generation 42 not found in GCS bucket 'models' at "
        + origin() + ": it was replaced or deleted after the listing (HTTP 404: No "
        + "such object: models/m/x)");
    status = 503;
    errorBody = "busy";
    assertThatThrownBy(() -> client(GcsAuth.anonymous()).list())
        .satisfies(e -> assertThat(((FetchException) e).retryable()).isTrue());
  }

  @Test
  void anEmptyPrefixIsNotFound() {
    assertThatThrownBy(() -> new GcsClient(GcsSettings.of(URI.create(origin()), "models", "nothing",
        GcsAuth.anonymous())).list()).hasMessage("no objects under prefix 'nothing/' in GCS bucket 'models' at "
        + origin()).satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.NOT_FOUND));
  }

  private GcsClient client(GcsAuth auth) {
    return new GcsClient(GcsSettings.of(URI.create(origin()), "models", "m", auth));
  }

  private String origin() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.add(exchange);
    authorizations.add(Optional.ofNullable(exchange.getRequestHeaders().getFirst("Authorization")).orElse("none"));
    String query = Optional.ofNullable(exchange.getRequestURI().getQuery()).orElse("");
    byte[] body;
    int code = status;
    if (code != 200) {
      body = errorBody.getBytes(StandardCharsets.UTF_8);
    } else if (query.contains("alt=media")) {
      body = "world".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Range", "bytes 6-10/11");
      code = 206;
    } else if (!query.contains("prefix=m/")) {
      body = "{}".getBytes(StandardCharsets.UTF_8);
    } else {
      body = (query.contains("pageToken=p2") ? PAGE_2 : PAGE_1).getBytes(StandardCharsets.UTF_8);
    }
    exchange.sendResponseHeaders(code, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
