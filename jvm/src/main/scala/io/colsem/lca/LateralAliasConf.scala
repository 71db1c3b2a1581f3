package io.colsem.lca

import org.apache.spark.sql.internal.SQLConf

import io.colsem.settings.{ColsemConf, LateralAliasScope}

/** The lateral-alias feature's settings, read once per rule application. */
object LateralAliasConf {
  def enabled(conf: SQLConf): Boolean =
    ColsemConf.isEnabled(conf) && ColsemConf.LateralAliasEnabled.readFrom(conf)

  /** Where else than in their own SELECT list select-list aliases are read. */
  def extraScopes(conf: SQLConf): Seq[LateralAliasScope] =
    ColsemConf.LateralAliasExtraScopes.readFrom(conf)

  /** How names compare: as the session's case sensitivity says. */
  def nameKey(conf: SQLConf): String => String =
    if (conf.caseSensitiveAnalysis) identity else _.toLowerCase(java.util.Locale.ROOT)
}
