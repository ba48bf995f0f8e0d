package dev.modelplane.router.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The path policy: which methods and paths reach a model server, checked on the normal form of the path.
 */
class PathPolicyTest {
  private final PathPolicy policy = PathPolicy.defaults();

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "/v1/chat/completions|/v1/chat/completions",
      "/v1/%63hat/completions|/v1/chat/completions",
      "/v1/chat%2dx|/v1/chat-x",
      "/v1/a%20b|/v1/a%20b",
      "/v1/a%3bb|/v1/a%3Bb",
      "/v1/../sleep|/sleep",
      "/v1/%2e%2E/sleep|/sleep",
      "/../../v1/models|/v1/models",
      "/v1/./chat//completions/|/v1/chat//completions/",
      "/v1/chat/.|/v1/chat/",
      "//sleep|//sleep",
      "/v1/a%2fb|/v1/a%2Fb",
      "/|/",
      "/v1/..|/"})
  void pathsAreNormalizedAsModelServersRouteThem(String raw, String normal) {
    assertThat(PathPolicy.normalize(raw)).isEqualTo(normal);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1%2Fload_lora_adapter", "/v1%2fx", "/v1/a%5Cb", "/v1/a\\b", "/v1/%", "/v1/%zz",
      "v1/models", "*", "http://h/v1/models"})
  void encodedSlashesMalformedEscapesAndNonAbsoluteTargetsAre400(String raw) {
    assertThatThrownBy(() -> policy.check("POST", PathPolicy.normalize(raw)))
        .isInstanceOfSatisfying(RouterException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/chat/completions", "/v1/responses/resp_1", "/v1/models", "/tokenize", "/detokenize",
      "/rerank", "/v2/rerank", "/score", "/pooling", "/classify", "/inference/v1/generate", "/v1/messages/x"})
  void inferencePathsAreForwarded(String path) {
    policy.check("POST", path);
    policy.check("GET", path);
    policy.check("DELETE", path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/sleep", "/wake_up", "/is_sleeping", "/reset_prefix_cache", "/collective_rpc",
      "/server_info", "/metrics", "/start_profile", "/stop_profile", "/scale_elastic_ep", "/pause", "/resume",
      "/update_weights", "/v1/load_lora_adapter", "/v1/unload_lora_adapter", "/v1/load_lora_adapter/",
      "/v1/LOAD_LORA_ADAPTER", "/v1/unload_lora_adapter/x", "/", "/v1", "/tokenizer", "/health", "/v2/models",
      "//sleep", "/v1//load_lora_adapter"})
  void adminAndUnknownPathsAre404(String path) {
    assertThatThrownBy(() -> policy.check("POST", path)).isInstanceOfSatisfying(RouterException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
  }

  @ParameterizedTest
  @ValueSource(strings = {"TRACE", "CONNECT", "PUT", "PATCH", "PROPFIND"})
  void methodsOutsideTheApisAre404(String method) {
    assertThatThrownBy(() -> policy.check(method, "/v1/chat/completions"))
        .isInstanceOfSatisfying(RouterException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
          assertThat(e.getMessage()).isEqualTo("unsupported route " + method + " /v1/chat/completions");
        });
    policy.check("HEAD", "/v1/models");
    policy.check("OPTIONS", "/v1/chat/completions");
  }

  @Test
  void addedPrefixesAreForwardedButNeverTheDeniedPaths() {
    PathPolicy wider = policy.withAllowed(List.of("/generate", "/v2/"));
    wider.check("POST", "/generate");
    wider.check("POST", "/generate/stream");
    wider.check("GET", "/v2/models");
    assertThatThrownBy(() -> wider.check("POST", "/generatex")).isInstanceOf(RouterException.class);
    PathPolicy everything = policy.withAllowed(List.of("/"));
    everything.check("POST", "/sleep");
    assertThatThrownBy(() -> everything.check("POST", "/v1/load_lora_adapter"))
        .isInstanceOf(RouterException.class);
    assertThat(policy.allowed()).doesNotContain("/generate");
  }

  @ParameterizedTest
  @ValueSource(strings = {"generate", "", "/a/../b", "/a//b", "/a%2Fb", "/a%41", "/a?b", "/a/./b"})
  void addedPrefixesMustBeInNormalForm(String prefix) {
    assertThatThrownBy(() -> policy.withAllowed(List.of(prefix))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("allowed path prefix '" + prefix + "' must be an absolute path in normal form (starting "
            + "with '/', no query, percent-encoding, '.' or '..' segments or '//')");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/sleep", "/SLEEP/", "//collective_rpc", "/metrics", "/v1/load_lora_adapter",
      "/load_lora_adapter", "/slots/0", "/update_weights_from_disk", "/server_info"})
  void onAGatewayListenerNoRouteOpensAnAdministrativePath(String path) {
    assertThatThrownBy(() -> PathPolicy.checkRouted("POST", path)).isInstanceOf(RouterException.class)
        .hasMessageContaining("unsupported route POST");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/invalid-epp-test", "/v1/chat/completions", "/v2/models/m/infer", "/sleepy",
      "/generate"})
  void onAGatewayListenerEveryOtherPathIsTheRoutesBusiness(String path) {
    PathPolicy.checkRouted("POST", path);
    assertThatThrownBy(() -> PathPolicy.checkRouted("TRACE", path)).isInstanceOf(RouterException.class);
    assertThatThrownBy(() -> PathPolicy.checkRouted("GET", path + "/a%2Fb")).isInstanceOf(RouterException.class)
        .hasMessageContaining("encoded slash");
  }
}
