package dev.modelplane.operator.modelsource.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ServiceAccountTokensTest {
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private GoogleTokenServer google;
  private Instant now = T0;

  @BeforeEach
  void start() throws Exception {
    google = new GoogleTokenServer();
  }

  @AfterEach
  void stop() {
    google.close();
  }

  @Test
  void exchangesASignedJwtAndKeepsTheTokenUntilAMinuteBeforeItExpires() throws Exception {
    ServiceAccountTokens tokens = tokens();
    assertThat(tokens.bearer()).contains("token-1");
    assertThat(google.problems).isEmpty();
    assertThat(google.claims).singleElement().satisfies(c -> {
      assertThat(c.path("iat").asLong()).isEqualTo(T0.getEpochSecond());
      assertThat(c.path("exp").asLong()).isEqualTo(T0.getEpochSecond() + 3600);
    });
    now = T0.plus(Duration.ofMinutes(58));
    assertThat(tokens.bearer()).as("cached").contains("token-1");
    now = T0.plus(Duration.ofMinutes(59));
    assertThat(tokens.bearer()).as("renewed a minute early").contains("token-2");
    tokens.invalidate();
    assertThat(tokens.bearer()).as("renewed after the server rejected it").contains("token-3");
    assertThat(google.problems).isEmpty();
  }

  @Test
  void aRefusedGrantIsAccessDeniedNamingTheAccountNotTheKey() throws Exception {
    google.refuse = true;
    String keyFile = google.keyFile();
    assertThatThrownBy(() -> tokens().bearer()).isInstanceOf(FetchException.class)
        .hasMessage("the token endpoint http://127.0.0.1:" + google.tokenUri().getPort() + " refused a token for "
            + "service account '" + GoogleTokenServer.EMAIL + "': invalid_grant: Invalid JWT Signature. (HTTP 400)")
        .satisfies(e -> assertThat(((FetchException) e).kind()).isEqualTo(FetchException.Kind.ACCESS_DENIED))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(keyFile.substring(keyFile.indexOf("MII"),
            keyFile.indexOf("MII") + 40)));
  }

  @Test
  void aKeySignedByAnotherAccountIsRefusedByTheServer() throws Exception {
    try (GoogleTokenServer other = new GoogleTokenServer()) {
      // Another account's private key with this server's token URI: the signature cannot verify.
      String mixed = other.keyFile().replace(other.tokenUri().toString(), google.tokenUri().toString());
      ServiceAccountTokens tokens = new ServiceAccountTokens(ServiceAccountKey.parse(mixed),
          new HttpSender(Duration.ofSeconds(5)), Clock.fixed(T0, ZoneOffset.UTC), Duration.ofSeconds(5));
      assertThatThrownBy(tokens::bearer).isInstanceOf(FetchException.class).hasMessageContaining("invalid_grant");
      assertThat(google.problems).containsExactly("bad signature");
    }
  }

  @Test
  void keyFilesAreCheckedWithoutShowingTheKey() throws Exception {
    String good = google.keyFile();
    ServiceAccountKey key = ServiceAccountKey.parse(good);
    assertThat(key.clientEmail()).isEqualTo(GoogleTokenServer.EMAIL);
    assertThat(key.toString()).contains("privateKey=<set>").doesNotContain("MII");
    assertThatThrownBy(() -> ServiceAccountKey.parse("{\"type\":\"authorized_user\"}"))
        .hasMessageStartingWith("type is 'authorized_user', not 'service_account'");
    assertThatThrownBy(() -> ServiceAccountKey.parse(good.replace("client_email", "email")))
        .hasMessage("the field client_email is missing");
    assertThatThrownBy(() -> ServiceAccountKey.parse(good.replace("BEGIN PRIVATE KEY", "BEGIN RSA PRIVATE KEY")))
        .hasMessageStartingWith("private_key is a PKCS#1 RSA key");
    assertThatThrownBy(() -> ServiceAccountKey.parse(good.replace("MII", "xx")))
        .hasMessage("private_key is not a PKCS#8 RSA private key in PEM");
    assertThatThrownBy(() -> ServiceAccountKey.parse(good.replace("http://127.0.0.1", "http://10.0.0.1")))
        .hasMessage("token_uri must be an https URL (plain http only to a loopback address)");
    assertThatThrownBy(() -> ServiceAccountKey.parse("{not json")).hasMessageStartingWith("not JSON");
    assertThat(ServiceAccountKey.parse(good.replaceAll(",\"token_uri\":\"[^\"]*\"", "")).tokenUri())
        .isEqualTo(ServiceAccountKey.DEFAULT_TOKEN_URI);
  }

  private ServiceAccountTokens tokens() {
    Clock clock = new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now;
      }
    };
    return new ServiceAccountTokens(ServiceAccountKey.parse(google.keyFile()), new HttpSender(Duration.ofSeconds(5)),
        clock, Duration.ofSeconds(5));
  }
}
