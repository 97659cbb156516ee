package dev.workingmemory.spring.inspector.secured;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A servlet application behind Spring Security: every request needs a signed-in user (HTTP Basic); the inspector's API
 * is left out of CSRF protection as its README says (its write actions need the inspector's token in a header, which a
 * cross-site page cannot send).
 */
@SpringBootApplication
public class SecuredApplication {

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(requests -> requests.anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/working-memory/inspector/api/**"))
                .build();
    }
}
