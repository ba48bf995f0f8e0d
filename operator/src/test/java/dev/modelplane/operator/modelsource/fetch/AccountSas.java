package dev.modelplane.operator.modelsource.fetch;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An account SAS for the Blob service, signed with the account key as Azure defines it for version 2020-12-06 and
 * later (account, permissions, services, resource types, start, expiry, IP, protocol, version, encryption scope, each
 * followed by a newline), valid for an hour: what the Azure portal or {@code az storage account generate-sas} hands
 * out, computed locally for tests.
 */
final class AccountSas {
  private static final String VERSION = "2021-08-06";
  private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
      .withZone(ZoneOffset.UTC);

  private AccountSas() {
  }

  /** The SAS query string for blob service, container and object resources, over http or https. */
  static String sign(String account, String base64Key, String permissions) {
    String expiry = ISO.format(Instant.now().plus(1, ChronoUnit.HOURS));
    String stringToSign = String.join("\n", account, permissions, "b", "sco", "", expiry, "", "https,http", VERSION,
        "", "");
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(base64Key), "HmacSHA256"));
      String sig = Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
      return "sv=" + VERSION + "&ss=b&srt=sco&sp=" + permissions + "&se=" + SigV4Signer.uriEncode(expiry, true)
          + "&spr=https,http&sig=" + SigV4Signer.uriEncode(sig, true);
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
