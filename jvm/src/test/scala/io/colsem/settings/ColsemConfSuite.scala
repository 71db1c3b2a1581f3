package io.colsem.settings

import org.apache.spark.sql.AnalysisException
import org.apache.spark.sql.internal.SQLConf
import org.scalatest.funsuite.AnyFunSuite

import io.colsem.shims.SparkShims

class ColsemConfSuite extends AnyFunSuite {

  private def confWith(pairs: (String, String)*): SQLConf = {
    val conf = new SQLConf
    pairs.foreach { case (k, v) => conf.setConfString(k, v) }
    conf
  }

  test("unset keys read as their defaults") {
    val conf = new SQLConf
    assert(ColsemConf.Enabled.readFrom(conf) === true)
    assert(ColsemConf.SinglePassResolverPolicy.readFrom(conf) === "warn")
  }

  test("values parse case-insensitively and trimmed") {
    val conf = confWith(
      "spark.colsem.enabled" -> " FALSE ",
      "spark.colsem.singlePassResolver.policy" -> "Error")
    assert(ColsemConf.Enabled.readFrom(conf) === false)
    assert(ColsemConf.SinglePassResolverPolicy.readFrom(conf) === "error")
  }

  test("an invalid value names the key, the value and the allowed values") {
    val e = intercept[AnalysisException] {
      ColsemConf.SinglePassResolverPolicy.validate(
        confWith("spark.colsem.singlePassResolver.policy" -> "loud"))
    }
    assert(SparkShims.errorClassOf(e) === "COLSEM_INVALID_CONF_VALUE")
    assert(e.getSqlState === "22022")
    assert(e.getMessageParameters.get("confName") === "spark.colsem.singlePassResolver.policy")
    assert(e.getMessage === "[COLSEM_INVALID_CONF_VALUE] The value 'loud' of the config " +
      "'spark.colsem.singlePassResolver.policy' is invalid. Allowed values: warn, error. Set an " +
      "allowed value (SET spark.colsem.singlePassResolver.policy=...) or unset it (RESET " +
      "spark.colsem.singlePassResolver.policy) to get the default 'warn'. SQLSTATE: 22022")
  }

  test("rules read an invalid value as the default; only validate reports it") {
    val conf =
      confWith("spark.colsem.enabled" -> "maybe", "spark.colsem.star.exclude" -> "TAGGED,NOPE")
    assert(ColsemConf.Enabled.readFrom(conf) === true)
    assert(ColsemConf.StarExclude.readFrom(conf) === Seq())
    assert(intercept[AnalysisException](ColsemConf.StarExclude.validate(conf))
      .getMessageParameters.get("confValue") === "TAGGED,NOPE")
    ColsemConf.StarExclude.validate(
      confWith("spark.colsem.star.exclude" -> " tagged , PATTERN,tagged"))
    assert(ColsemConf.StarExclude.readFrom(
      confWith("spark.colsem.star.exclude" -> " tagged , PATTERN,tagged")) ===
      Seq(StarStrategy.Tagged, StarStrategy.Pattern))
  }

  test("extraScopes: a comma list of scopes, empty by default, a bad entry refused") {
    import LateralAliasScope.{Subquery, Where}
    val key = ColsemConf.LateralAliasExtraScopes.key
    assert(ColsemConf.LateralAliasExtraScopes.readFrom(new SQLConf) === Seq())
    assert(
      ColsemConf.LateralAliasExtraScopes.readFrom(confWith(key -> " subquery , Where,WHERE ")) ===
        Seq(Subquery, Where))
    assert(ColsemConf.LateralAliasExtraScopes.readFrom(confWith(key -> "")) === Seq())
    val bad = confWith(key -> "WHERE,HAVING")
    assert(ColsemConf.LateralAliasExtraScopes.readFrom(bad) === Seq())
    val e = intercept[AnalysisException](ColsemConf.LateralAliasExtraScopes.validate(bad))
    assert(e.getMessageParameters.get("confValue") === "WHERE,HAVING")
    assert(e.getMessageParameters.get(
      "allowedValues") === "a comma-separated list of WHERE, SUBQUERY (or empty)")
  }

  private def roundTrips[T](entry: ColsemConfEntry[T]): Boolean =
    entry.parse(entry.defaultString).contains(entry.default)

  test("every key is documented, under the prefix, and unique") {
    assert(ColsemConf.all.map(_.key).distinct.size === ColsemConf.all.size)
    ColsemConf.all.foreach { e =>
      assert(e.key.startsWith(ColsemConf.Prefix))
      assert(e.doc.nonEmpty)
      assert(roundTrips(e), s"${e.key}: default does not parse back")
    }
  }

  test("a misspelt key suggests the closest known key") {
    assert(ValidateColsemConf.closestKey("spark.colsem.enabld") === Some("spark.colsem.enabled"))
    assert(ValidateColsemConf.closestKey("spark.colsem.somethingElseEntirely") === None)
  }
}
