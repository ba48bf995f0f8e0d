package dev.modelplane.operator.ome.isvc;

import dev.modelplane.common.servers.SglangFlags;
import dev.modelplane.common.servers.VllmFlags;
import io.fabric8.kubernetes.api.model.Container;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Serves a LoRA adapter through the model server's own flags: vLLM's {@code --enable-lora --lora-modules
 * name=path}, SGLang's {@code --lora-paths name=path}. Which server a container runs is read from its image and
 * command, the way a reader of the runtime would tell.
 */
final class AdapterFlags {
  /** The servers that load LoRA adapters by flag. */
  enum Server { VLLM, SGLANG }

  private AdapterFlags() {
  }

  /** The server the container runs, or null when it is neither vLLM nor SGLang. */
  static Server serverOf(Container container) {
    String text = (String.valueOf(container.getImage()) + " " + String.join(" ", orEmpty(container.getCommand()))
        + " " + String.join(" ", orEmpty(container.getArgs()))).toLowerCase(Locale.ROOT);
    if (text.contains("sglang")) {
      return Server.SGLANG;
    }
    return text.contains("vllm") ? Server.VLLM : null;
  }

  /**
   * Adds the adapter flags to {@code container} (in place).
   *
   * @throws IllegalArgumentException when the container runs a server that takes no LoRA flags
   */
  static void add(Container container, String adapterName, String path) {
    Server server = serverOf(container);
    if (server == null) {
      throw new IllegalArgumentException("LoRA adapters are served through vLLM's --lora-modules or SGLang's "
          + "--lora-paths, but the runtime's container " + container.getName() + " (image " + container.getImage()
          + ") runs neither");
    }
    List<String> flags = switch (server) {
      case VLLM -> has(container, VllmFlags.ENABLE_LORA) ? List.of(VllmFlags.LORA_MODULES, adapterName + "=" + path)
          : List.of(VllmFlags.ENABLE_LORA, VllmFlags.LORA_MODULES, adapterName + "=" + path);
      case SGLANG -> List.of(SglangFlags.LORA_PATHS, adapterName + "=" + path);
    };
    List<String> args = new ArrayList<>(orEmpty(container.getArgs()));
    if (shellForm(container) && args.size() == 1) {
      // A runtime written as `sh -c "<command line>"`: the flags belong at the end of that line.
      args.set(0, args.getFirst().stripTrailing() + " " + String.join(" ", flags));
    } else if (shellForm(container) && args.isEmpty()) {
      List<String> command = new ArrayList<>(container.getCommand());
      command.set(command.size() - 1, command.getLast().stripTrailing() + " " + String.join(" ", flags));
      container.setCommand(command);
      return;
    } else {
      args.addAll(flags);
    }
    container.setArgs(args);
  }

  private static boolean has(Container container, String flag) {
    return orEmpty(container.getArgs()).stream().anyMatch(a -> a.equals(flag) || a.contains(flag + " ")
        || a.endsWith(flag)) || orEmpty(container.getCommand()).stream().anyMatch(a -> a.contains(flag));
  }

  private static boolean shellForm(Container container) {
    List<String> command = orEmpty(container.getCommand());
    return command.size() >= 2 && command.get(command.size() - (orEmpty(container.getArgs()).isEmpty() ? 2 : 1))
        .equals("-c");
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }
}
