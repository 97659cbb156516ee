package dev.workingmemory.spring.readme;

import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Runs {@link AssistantApplication} in the child JVM of {@code ReadmeApplicationTest} and drives it by the lines of
 * its standard input: {@code chat <user> <message>} prints {@code answer <the assistant's answer>};
 * {@code restart} closes the Spring context and starts a new one (prints {@code restarted}); {@code close} closes it
 * (prints {@code closed}). Prints {@code ready} once started. The arguments are the application's.
 */
public final class AssistantApplicationDriver {

    private AssistantApplicationDriver() {
    }

    public static void main(String[] args) throws IOException {
        ConfigurableApplicationContext context = start(args);
        System.out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("chat ")) {
                String[] parts = line.split(" ", 3);
                System.out.println("answer " + context.getBean(Assistant.class).chat(parts[1], parts[2]));
            } else if (line.equals("restart")) {
                context.close();
                context = start(args);
                System.out.println("restarted");
            } else if (line.equals("close")) {
                context.close();
                System.out.println("closed");
                return;
            }
        }
    }

    private static ConfigurableApplicationContext start(String[] args) {
        return new SpringApplicationBuilder(AssistantApplication.class).bannerMode(Banner.Mode.OFF).run(args);
    }
}
