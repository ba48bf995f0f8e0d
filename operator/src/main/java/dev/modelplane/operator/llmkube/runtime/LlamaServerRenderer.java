package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.common.servers.LlamaServerFlags;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;

/**
 * What the two ways of running llama.cpp's {@code llama-server} have in common (one model, or router mode): the
 * container, the port and its flag, the address flag, the metrics switch, the autoscaling metric and the
 * {@code /health} probes.
 */
sealed interface LlamaServerRenderer extends RuntimeRenderer permits LlamaCppRenderer, LlamaCppRouterRenderer {
  Flag PORT = new Flag(LlamaServerFlags.PORT);
  Flag HOST = new Flag(LlamaServerFlags.HOST);
  Flag METRICS = new Flag(LlamaServerFlags.METRICS);

  @Override
  default String containerName() {
    return "llama-server";
  }

  @Override
  default int defaultPort() {
    return 8080;
  }

  @Override
  default String defaultHpaMetric() {
    return "llamacpp:requests_processing";
  }

  @Override
  default int listenPort(RuntimeInput in) {
    return RuntimeRenderer.listenPortFrom(in, PORT, defaultPort());
  }

  @Override
  default Probes probes(int port) {
    return Probes.http("/health", port);
  }

  /** Adds {@code --port <p> --host <bindAddress|::>}, each unless {@code extraArgs} names it. */
  default ArgList addListenAddress(ArgList args, RuntimeInput in) {
    return args.option(PORT, Integer.toString(in.configuredPort(defaultPort()))).option(HOST, in.bindAddress());
  }
}
