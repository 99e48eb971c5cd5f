package io.sparkdcp.copy.keep;

import io.sparkdcp.posix.PathBytes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("fast")
class XattrPolicyTest {
    private static boolean keeps(XattrPolicy p, String name) {
        return p.keeps(PathBytes.of(name));
    }

    @Test
    void nonLustreSkipsWhatLustreAndXfsManageThemselves() {
        XattrPolicy p = XattrPolicy.nonLustre();
        for (String managed : new String[]{"lustre.lov", "lustre.anything", "trusted.lov", "trusted.lma", "trusted.link",
                "trusted.fid", "trusted.som", "trusted.hsm", "trusted.projid", "security.c", "trusted.SGI_ACL_FILE"})
            assertFalse(keeps(p, managed), managed);
        for (String kept : new String[]{"user.a", "trusted.mine", "security.selinux", "security.capability",
                "system.posix_acl_access", "system.posix_acl_default", "trusted.lovely"})
            assertTrue(keeps(p, kept), kept);
    }

    @Test
    void allAndNoneMeanWhatTheySay() {
        assertTrue(keeps(XattrPolicy.all(), "lustre.lov"));
        assertFalse(keeps(XattrPolicy.none(), "user.a"));
        assertTrue(XattrPolicy.none().copiesNothing());
    }

    @Test
    void libattrHonoursSkipLinesOnly(@TempDir Path dir) throws IOException {
        Path conf = Files.writeString(dir.resolve("xattr.conf"), """
                # comment
                system.posix_acl_access     permissions
                trusted.SGI_*               skip   # xfs specific
                user.Beagle.*               skip
                security.evm                skip
                """);
        XattrPolicy p = XattrPolicy.libattr(conf);
        assertFalse(keeps(p, "trusted.SGI_ACL_FILE"));
        assertFalse(keeps(p, "user.Beagle.x"));
        assertFalse(keeps(p, "security.evm"));
        assertTrue(keeps(p, "system.posix_acl_access"), "'permissions' entries are ACLs, which the copy keeps");
        assertTrue(keeps(p, "user.other"));
        assertTrue(keeps(XattrPolicy.libattr(dir.resolve("missing.conf")), "trusted.SGI_ACL_FILE"));
    }

    @Test
    void globMatchesLikeFnmatch() {
        assertTrue(XattrPolicy.globMatches("a*c", "abbbc"));
        assertTrue(XattrPolicy.globMatches("a?c", "abc"));
        assertFalse(XattrPolicy.globMatches("a?c", "abbc"));
        assertTrue(XattrPolicy.globMatches("*", ""));
        assertFalse(XattrPolicy.globMatches("user.*", "trusted.x"));
    }

    @Test
    void parsesTheCliWordsAndRejectsOthers() {
        assertEquals("non-lustre", XattrPolicy.parse("non-lustre").word());
        assertEquals("libattr", XattrPolicy.parse("libattr").word());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> XattrPolicy.parse("some"));
        assertTrue(e.getMessage().contains("none, all, non-lustre or libattr"));
    }
}
