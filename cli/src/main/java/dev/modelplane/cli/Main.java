package dev.modelplane.cli;

import dev.modelplane.simulator.SimulatorCommand;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code modelplane} launcher. */
@Command(
    name = "modelplane",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Kubernetes-native serving of large language models.",
    subcommands = {CommandLine.HelpCommand.class, UpCommand.class, DownCommand.class,
        dev.modelplane.cli.user.DeployCommand.class, dev.modelplane.cli.user.ListCommand.class,
        dev.modelplane.cli.user.StatusCommand.class, dev.modelplane.cli.user.QueueCommand.class,
        dev.modelplane.cli.user.DeleteCommand.class, dev.modelplane.cli.user.ChatCommand.class,
        dev.modelplane.cli.user.BenchCommand.class, dev.modelplane.cli.plan.PlanCommand.class, CrdsCommand.class,
        DevClusterCommand.class,
        SimulatorCommand.class, dev.modelplane.router.RouterCommand.class, RenderCommand.class,
        OperatorCommand.class, ModelAgentCommand.class, FetchCommand.class})
public final class Main implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the CLI and returns its exit code (for tests). */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  /** The command line with its error handling: one line per error, the stack trace only with --debug. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new Main());
    UserErrors.addDebugOption(cli);
    cli.setExecutionExceptionHandler(new UserErrors());
    return cli;
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Reads the version written into the jar at build time. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          properties.load(in);
        }
      }
      return new String[] {"modelplane " + properties.getProperty("version", "unknown"),
          "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "?") + ")"};
    }
  }
}
