package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.OciClient;
import dev.modelplane.operator.modelsource.fetch.OciSettings;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@link OciClient} of an {@code oci://n/<namespace>/b/<bucket>/o/<prefix>} model. Authentication follows
 * {@code storage.parameters.auth} (OME's names {@code UserPrincipal}, {@code InstancePrincipal}, … and genai-bench's
 * {@code user_principal}, {@code security_token}, … alike, case and {@code _} ignored): the user principal (API key)
 * and the session token are read from the Secret {@code storage.key} ({@link OciCredentials}); the instance and
 * resource principals and OKE workload identity are refused, naming what is supported. Without {@code auth} the Secret
 * decides (OME defaults to the instance principal, which needs a Secret-less node identity modelplane does not use).
 * Endpoint: {@code storage.parameters.endpoint}, else the region's; region: {@code storage.parameters.region}, else
 * the credentials'.
 */
final class OciSourceFactory {
  private static final String SUPPORTED = "supported: UserPrincipal (API key) and security_token (session token), "
      + "from the Secret named by spec.storage.key";

  private OciSourceFactory() {
  }

  static ModelSourceFactory.Outcome create(StorageUri.Oci oci, Map<String, String> params, String secretName,
      String namespace, Map<String, String> data, ModelAgentSettings settings) {
    String auth = Optional.ofNullable(params.get("auth")).map(String::strip).orElse("");
    Boolean sessionToken;
    switch (auth.toLowerCase(Locale.ROOT).replaceAll("[^a-z]", "").replaceFirst("^oci", "")) {
      case "" -> sessionToken = null;
      case "userprincipal", "apikey" -> sessionToken = false;
      case "securitytoken", "sessiontoken" -> sessionToken = true;
      case "instanceprincipal", "resourceprincipal", "okeworkloadidentity", "instanceobouser" -> {
        return refused("UnsupportedAuth", "spec.storage.parameters.auth: " + auth + " authentication is not "
            + "supported by modelplane's model agent; " + SUPPORTED);
      }
      default -> {
        return refused("InvalidStorageUri", "spec.storage.parameters.auth: unknown OCI authentication '" + auth
            + "'; " + SUPPORTED);
      }
    }
    if (secretName == null || secretName.isBlank()) {
      return refused("MissingCredentials", "spec.storage.key: oci:// downloads need a Secret with an OCI API key "
          + "(tenancy, user, fingerprint, key) or session token (security_token, key), or an OCI config file "
          + "(config); without one OME would use the instance principal, which is not supported");
    }
    if (data == null) {
      return refused("MissingCredentials", "Secret '" + secretName + "' (spec.storage.key) not found in namespace '"
          + namespace + "'");
    }
    OciCredentials.Credentials credentials;
    try {
      String profile = Optional.ofNullable(params.get("profile")).map(String::strip).filter(p -> !p.isEmpty())
          .orElse(OciConfigFile.DEFAULT_PROFILE);
      credentials = OciCredentials.read(secretName, namespace, data, sessionToken, profile);
    } catch (OciCredentials.Problem p) {
      return refused(p.reason(), p.getMessage());
    }
    Optional<String> endpoint = Optional.ofNullable(params.get("endpoint")).map(String::strip)
        .filter(e -> !e.isEmpty());
    Optional<String> region = Optional.ofNullable(params.get("region")).map(String::strip).filter(r -> !r.isEmpty())
        .or(credentials::region);
    URI endpointUri;
    try {
      if (endpoint.isPresent()) {
        endpointUri = URI.create(endpoint.get());
      } else if (region.isPresent()) {
        endpointUri = OciSettings.regionEndpoint(region.get());
      } else {
        return refused("InvalidStorageUri", "spec.storage.parameters.region: oci:// needs the bucket's region "
            + "(e.g. eu-frankfurt-1), from the parameter or the credentials' region, or "
            + "spec.storage.parameters.endpoint");
      }
    } catch (IllegalArgumentException e) {
      return refused("InvalidStorageUri", endpoint.isPresent() ? "spec.storage.parameters.endpoint is not a URL"
          : "spec.storage.parameters.region: " + e.getMessage());
    }
    OciSettings s = new OciSettings(endpointUri, oci.namespace(), oci.bucket(), oci.prefix(), credentials.signer(),
        1000, settings.requestTimeout());
    return new ModelSourceFactory.Outcome.Ready(new OciClient(s, settings.limits().maxListedObjects()));
  }

  private static ModelSourceFactory.Outcome refused(String reason, String message) {
    return new ModelSourceFactory.Outcome.Refused(reason, message);
  }
}
